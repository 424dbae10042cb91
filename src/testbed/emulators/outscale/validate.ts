/** Reading fields of a request body the way the OAPI gateway checks them (7000 missing, 4045 bad value). */
import { wireErrors } from './wire-errors.js';

export type Body = Record<string, unknown>;

export function optionalString(body: Body, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw wireErrors.invalidValue(field, value, 'a string');
  return value;
}

export function requiredString(body: Body, field: string): string {
  const value = optionalString(body, field);
  if (value === undefined || value === '') throw wireErrors.missing(field);
  return value;
}

export function optionalBoolean(body: Body, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw wireErrors.invalidValue(field, value, 'true or false');
  return value;
}

export function optionalInteger(body: Body, field: string, min: number, max: number): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw wireErrors.invalidValue(field, value, `an integer from ${min} to ${max}`);
  }
  return value;
}

export function optionalStringList(body: Body, field: string): string[] | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw wireErrors.invalidValue(field, value, 'a list of strings');
  return value as string[];
}

export function requiredStringList(body: Body, field: string): string[] {
  const value = optionalStringList(body, field);
  if (!value || value.length === 0) throw wireErrors.missing(field);
  return value;
}

export function optionalObject(body: Body, field: string): Body | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw wireErrors.invalidValue(field, value, 'an object');
  return value as Body;
}

export function optionalObjectList(body: Body, field: string): Body[] | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'object' || v === null || Array.isArray(v))) {
    throw wireErrors.invalidValue(field, value, 'a list of objects');
  }
  return value as Body[];
}

export function oneOf<T extends string>(field: string, value: string | undefined, accepted: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!accepted.includes(value as T)) throw wireErrors.invalidValue(field, value, accepted.join(', '));
  return value as T;
}
