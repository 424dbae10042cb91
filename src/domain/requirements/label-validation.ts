/** Label key and value syntax (k8s validation.IsQualifiedName / IsValidLabelValue). */

const namePattern = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const dnsSubdomainPattern = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Problems with a label key, empty when valid ("prefix/name", prefix a DNS subdomain, name ≤ 63 chars). */
export function labelKeyErrors(key: string): string[] {
  const slash = key.indexOf('/');
  const prefix = slash < 0 ? undefined : key.slice(0, slash);
  const name = slash < 0 ? key : key.slice(slash + 1);
  const errors: string[] = [];
  if (prefix !== undefined) {
    if (prefix.length === 0) errors.push('prefix part must be non-empty');
    else if (prefix.length > 253) errors.push('prefix part must be no more than 253 characters');
    else if (!dnsSubdomainPattern.test(prefix)) errors.push('prefix part must be a lowercase DNS subdomain (e.g. example.com)');
  }
  if (name.length === 0) errors.push('name part must be non-empty');
  else if (name.length > 63) errors.push('name part must be no more than 63 characters');
  else if (!namePattern.test(name)) {
    errors.push(
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
    );
  }
  return errors;
}

/** Problems with a label value, empty when valid (empty, or ≤ 63 chars of [A-Za-z0-9-_.] starting and ending alphanumeric). */
export function labelValueErrors(value: string): string[] {
  if (value.length === 0) return [];
  if (value.length > 63) return ['must be no more than 63 characters'];
  if (!namePattern.test(value)) {
    return [
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
    ];
  }
  return [];
}

export function isValidLabelKey(key: string): boolean {
  return labelKeyErrors(key).length === 0;
}

export function isValidLabelValue(value: string): boolean {
  return labelValueErrors(value).length === 0;
}
