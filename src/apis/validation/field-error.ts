/** Field errors in kube-apiserver's shape: `spec.weight: Invalid value: 0: spec.weight in body should be …`. */

export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueTypeInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueDuplicate'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueForbidden'
  | 'FieldValueUnknown';

export interface FieldError {
  /** The field, as kube-apiserver names it: `spec.template.spec.requirements[0].key`, `spec.limits[cpu]`. */
  path: string;
  /** The error body after the path: `Invalid value: "x": …`, `Required value`. */
  message: string;
  type: FieldErrorType;
  value?: unknown;
}

/** A path segment for an object property. */
export function childPath(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

/** A path segment for a list index or a map key. */
export function indexPath(parent: string, index: number | string): string {
  return `${parent}[${index}]`;
}

/** How kube-apiserver prints a value inside an error: %q strings, plain numbers, Go-ish type names otherwise. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === null || value === undefined) return 'null';
  return JSON.stringify(Array.isArray(value) ? 'array' : 'object');
}

export function invalid(path: string, value: unknown, detail: string, type: FieldErrorType = 'FieldValueInvalid'): FieldError {
  return { path, type, value, message: `Invalid value: ${describeValue(value)}: ${detail}` };
}

export function required(path: string): FieldError {
  return { path, type: 'FieldValueRequired', message: 'Required value' };
}

export function notSupported(path: string, value: unknown, supported: readonly unknown[]): FieldError {
  const list = supported.map((v) => JSON.stringify(v)).join(', ');
  return { path, type: 'FieldValueNotSupported', value, message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${list}` };
}

export function tooMany(path: string, actual: number, max: number, unit: 'items' | 'properties'): FieldError {
  return { path, type: 'FieldValueTooMany', value: actual, message: `Too many: ${actual}: must have at most ${max} ${unit}` };
}

export function tooLong(path: string, value: string, max: number): FieldError {
  return { path, type: 'FieldValueTooLong', value, message: `Too long: may not be more than ${max} bytes` };
}

export function duplicate(path: string, value: unknown): FieldError {
  return { path, type: 'FieldValueDuplicate', value, message: `Duplicate value: ${JSON.stringify(value)}` };
}

export function unknownField(path: string): FieldError {
  return { path, type: 'FieldValueUnknown', message: `unknown field "${path}"` };
}

/** One line per error, as `kubectl apply` shows them. */
export function formatFieldError(error: FieldError): string {
  return `${error.path}: ${error.message}`;
}

export function formatFieldErrors(errors: readonly FieldError[]): string {
  return errors.map(formatFieldError).join('; ');
}
