/** Defensive readers for untrusted JSON objects: admission sees whatever a client sends. */
import type { RequirementSpec } from '../instancetypes/types.js';
import type { KubeObject } from './types.js';

export function asRecord(value: unknown): KubeObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as KubeObject) : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Reads a nested field: `field(obj, 'spec', 'template', 'spec')`. */
export function field(object: unknown, ...path: string[]): unknown {
  let current: unknown = object;
  for (const key of path) {
    const record = asRecord(current);
    if (!record) return undefined;
    current = record[key];
  }
  return current;
}

export function nameOf(object: unknown): string {
  return asString(field(object, 'metadata', 'name')) ?? '';
}

export function kindOf(object: unknown): string {
  return asString(field(object, 'kind')) ?? '';
}

export function groupOf(object: unknown): string {
  const apiVersion = asString(field(object, 'apiVersion')) ?? '';
  return apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
}

export interface NodeClassRef {
  group: string;
  kind: string;
  name: string;
}

/** `spec.template.spec.nodeClassRef` of a NodePool, or `spec.nodeClassRef` of a NodeClaim. */
export function nodeClassRefOf(object: unknown): NodeClassRef | undefined {
  const ref = asRecord(field(object, 'spec', 'template', 'spec', 'nodeClassRef')) ?? asRecord(field(object, 'spec', 'nodeClassRef'));
  if (!ref) return undefined;
  return { group: asString(ref.group) ?? '', kind: asString(ref.kind) ?? '', name: asString(ref.name) ?? '' };
}

/** The well-formed requirements of a NodePool (or NodeClaim), with their index in the list. */
export function requirementsOf(object: unknown): { index: number; spec: RequirementSpec }[] {
  const list = field(object, 'spec', 'template', 'spec', 'requirements') ?? field(object, 'spec', 'requirements');
  const out: { index: number; spec: RequirementSpec }[] = [];
  asArray(list).forEach((raw, index) => {
    const r = asRecord(raw);
    const key = asString(r?.key);
    const operator = asString(r?.operator);
    if (!r || !key || !operator) return;
    const values = asArray(r.values).filter((v): v is string => typeof v === 'string');
    const minValues = typeof r.minValues === 'number' ? r.minValues : undefined;
    out.push({
      index,
      spec: { key, operator: operator as RequirementSpec['operator'], values, ...(minValues !== undefined ? { minValues } : {}) },
    });
  });
  return out;
}

export const requirementsPath = (object: unknown): string =>
  field(object, 'spec', 'template') !== undefined ? 'spec.template.spec.requirements' : 'spec.requirements';

/** Quoted list for messages: `"a", "b", "c"`, cut after `max` entries. */
export function quoteList(values: readonly string[], max = 12): string {
  const shown = values.slice(0, max).map((v) => JSON.stringify(v));
  return values.length > max ? `${shown.join(', ')} and ${values.length - max} more` : shown.join(', ');
}
