/**
 * Typed reads of request body fields with the OVH API's bad-request errors: a field of the wrong type,
 * a missing required field, or a parameter the call does not describe.
 */
import { badRequest } from './api-error.js';

export type Body = Record<string, unknown>;

/** Rejects parameters the call does not describe, as the API framework does. */
export function rejectUndescribed(body: Body, described: readonly string[]): void {
  const extra = Object.keys(body).filter((k) => !described.includes(k));
  if (extra.length > 0) throw badRequest(`Received not described parameters: (${extra.join(', ')})`);
}

function invalid(field: string, value: unknown, expected: string): never {
  throw badRequest(`Invalid value for property ${field}: ${JSON.stringify(value)} is not ${expected}`);
}

export function optionalString(body: Body, field: string, path = field): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') invalid(path, value, 'a string');
  return value;
}

export function optionalInteger(body: Body, field: string, path = field): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) invalid(path, value, 'a non-negative integer');
  return value;
}

export function optionalNumber(body: Body, field: string, path = field): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) invalid(path, value, 'a number');
  return value;
}

export function optionalBoolean(body: Body, field: string, path = field): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') invalid(path, value, 'a boolean');
  return value;
}

export function optionalObject(body: Body, field: string, path = field): Body | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) invalid(path, value, 'an object');
  return value as Body;
}

export function requiredObject(body: Body, field: string, path = field): Body {
  const value = optionalObject(body, field, path);
  if (value === undefined) throw badRequest(`Missing parameter(s): ${path}`);
  return value;
}

export function optionalStringArray(body: Body, field: string, path = field): string[] | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) invalid(path, value, 'an array of strings');
  return value as string[];
}

export function stringMap(body: Body, field: string, path: string): Record<string, string> {
  const value = requiredObject(body, field, path);
  for (const [k, v] of Object.entries(value)) if (typeof v !== 'string') invalid(`${path}.${k}`, v, 'a string');
  return { ...(value as Record<string, string>) };
}
