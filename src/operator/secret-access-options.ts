/**
 * The options that limit which Secrets NodeClasses may reference (src/domain/secrets/secret-access.ts):
 * `--nodeclass-secret-namespaces` (default: the operator's namespace), `--nodeclass-secret-label`
 * (default karpenter-eu.io/nodeclass-secret=true) and `--operator-credentials-secrets` (the Secrets in the
 * operator's namespace that hold its own cloud credentials, never readable through a NodeClass; a
 * credentialsSecretRef naming one stands for these credentials).
 */
import { NodeClassSecretLabel, type SecretAccessPolicy } from '../domain/secrets/secret-access.js';
import { InvalidOptionError, parseName } from './option-values.js';

interface RawOption {
  value: string;
  source: string;
}

const LabelKey = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const LabelValue = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/;

export const DefaultNodeClassSecretLabel = `${NodeClassSecretLabel.key}=${NodeClassSecretLabel.value}`;

function names(raw: RawOption): string[] {
  const list = raw.value
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  return list.map((name) => parseName(raw.source, name));
}

function label(raw: RawOption): SecretAccessPolicy['label'] {
  const [key = '', value, ...rest] = raw.value.trim().split('=');
  if (value === undefined || rest.length > 0 || key.length > 316 || !LabelKey.test(key) || !LabelValue.test(value)) {
    throw new InvalidOptionError(raw.source, raw.value, `one label as key=value, e.g. ${DefaultNodeClassSecretLabel}`);
  }
  return { key, value };
}

export function parseSecretAccess(
  raw: { namespaces?: RawOption; label: RawOption; credentials?: RawOption },
  operatorNamespace: string,
): SecretAccessPolicy {
  const namespaces = raw.namespaces ? names(raw.namespaces) : [operatorNamespace];
  if (namespaces.length === 0)
    throw new InvalidOptionError(raw.namespaces?.source ?? '', raw.namespaces?.value ?? '', 'a comma-separated list of namespaces');
  const forbidden = (raw.credentials ? names(raw.credentials) : []).map((name) => ({ namespace: operatorNamespace, name }));
  return { namespaces, label: label(raw.label), forbidden };
}
