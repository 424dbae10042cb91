/**
 * Strategic merge patch for the built-in types, as far as the service and kubectl use it: lists merge by
 * their `patchMergeKey` (containers by name, conditions by type, ownerReferences by uid…), finalizers merge
 * as a set, other lists (taints, tolerations: `listType=atomic` upstream) are replaced whole.
 * Directives: `$patch: replace|delete|merge`, `$deleteFromPrimitiveList/<field>`, `$retainKeys`,
 * `$setElementOrder/<field>` (accepted and ignored: order is kept as merged).
 */
import { type JsonObject, type JsonValue, isJsonObject, jsonEqual } from '../../../util/json-patch.js';
import { badRequest } from './errors.js';

type ListStrategy = { mergeKey: string } | 'set';

/** Field-path suffixes (dotted, array levels omitted) → list merge strategy, from the Kubernetes API types. */
const listStrategies: Array<[string, ListStrategy]> = [
  ['metadata.finalizers', 'set'],
  ['metadata.ownerReferences', { mergeKey: 'uid' }],
  ['containers.env', { mergeKey: 'name' }],
  ['initContainers.env', { mergeKey: 'name' }],
  ['containers.ports', { mergeKey: 'containerPort' }],
  ['initContainers.ports', { mergeKey: 'containerPort' }],
  ['containers.volumeMounts', { mergeKey: 'mountPath' }],
  ['initContainers.volumeMounts', { mergeKey: 'mountPath' }],
  ['containers.volumeDevices', { mergeKey: 'devicePath' }],
  ['spec.containers', { mergeKey: 'name' }],
  ['spec.initContainers', { mergeKey: 'name' }],
  ['spec.ephemeralContainers', { mergeKey: 'name' }],
  ['spec.volumes', { mergeKey: 'name' }],
  ['spec.imagePullSecrets', { mergeKey: 'name' }],
  ['spec.hostAliases', { mergeKey: 'ip' }],
  ['spec.topologySpreadConstraints', { mergeKey: 'topologyKey' }],
  ['status.conditions', { mergeKey: 'type' }],
  ['status.addresses', { mergeKey: 'type' }],
];

function strategyFor(path: string, serviceLike: boolean): ListStrategy | undefined {
  if (serviceLike && path === 'spec.ports') return { mergeKey: 'port' };
  for (const [suffix, strategy] of listStrategies) if (path === suffix || path.endsWith(`.${suffix}`)) return strategy;
  return undefined;
}

interface Context {
  serviceLike: boolean;
}

function mergeSetList(original: JsonValue[], patch: JsonValue[]): JsonValue[] {
  const out = [...original];
  for (const item of patch) if (!out.some((o) => jsonEqual(o, item))) out.push(item);
  return out;
}

function mergeKeyedList(original: JsonValue[], patch: JsonValue[], mergeKey: string, path: string, ctx: Context): JsonValue[] {
  if (patch.some((p) => isJsonObject(p) && p.$patch === 'replace')) {
    return patch.filter((p) => !(isJsonObject(p) && p.$patch === 'replace'));
  }
  const out = [...original];
  for (const item of patch) {
    if (!isJsonObject(item) || !(mergeKey in item)) {
      throw badRequest(`unable to find api field in struct for the merge key "${mergeKey}" in list "${path}"`);
    }
    const index = out.findIndex((o) => isJsonObject(o) && jsonEqual(o[mergeKey], item[mergeKey]));
    if (item.$patch === 'delete') {
      if (index >= 0) out.splice(index, 1);
      continue;
    }
    const merged = mergeValue(index >= 0 ? out[index] : undefined, item, path, ctx);
    if (merged === undefined) continue;
    if (index >= 0) out[index] = merged;
    else out.push(merged);
  }
  return out;
}

function mergeObject(original: JsonObject | undefined, patch: JsonObject, path: string, ctx: Context): JsonValue | undefined {
  const directive = patch.$patch;
  if (directive === 'delete') return undefined;
  const base: JsonObject = directive === 'replace' || !original ? {} : { ...original };
  for (const [key, value] of Object.entries(patch)) {
    if (key === '$patch' || key === '$retainKeys' || key.startsWith('$setElementOrder/')) continue;
    if (key.startsWith('$deleteFromPrimitiveList/')) {
      const field = key.slice('$deleteFromPrimitiveList/'.length);
      const current = base[field];
      if (Array.isArray(current) && Array.isArray(value)) base[field] = current.filter((v) => !value.some((d) => jsonEqual(d, v)));
      continue;
    }
    const childPath = path ? `${path}.${key}` : key;
    if (value === null) {
      delete base[key];
      continue;
    }
    const merged = mergeValue(base[key], value, childPath, ctx);
    if (merged === undefined) delete base[key];
    else base[key] = merged;
  }
  const retain = patch.$retainKeys;
  if (Array.isArray(retain)) for (const key of Object.keys(base)) if (!retain.includes(key)) delete base[key];
  return base;
}

function mergeValue(original: JsonValue | undefined, patch: JsonValue, path: string, ctx: Context): JsonValue | undefined {
  if (isJsonObject(patch)) return mergeObject(isJsonObject(original) ? original : undefined, patch, path, ctx);
  if (Array.isArray(patch)) {
    const strategy = strategyFor(path, ctx.serviceLike);
    const current = Array.isArray(original) ? original : [];
    if (strategy === 'set') return mergeSetList(current, patch);
    if (strategy) return mergeKeyedList(current, patch, strategy.mergeKey, path, ctx);
    return patch.filter((p) => !(isJsonObject(p) && p.$patch === 'replace'));
  }
  return patch;
}

/** Applies a strategic merge patch to a built-in object of `kind`. */
export function applyStrategicMergePatch(original: JsonObject, patch: JsonValue, kind: string): JsonObject {
  if (!isJsonObject(patch)) throw badRequest('error decoding patch: a strategic merge patch must be a JSON object');
  const merged = mergeObject(structuredClone(original), patch, '', { serviceLike: kind === 'Service' });
  if (!isJsonObject(merged)) throw badRequest('error applying patch: the patch deletes the whole object');
  return merged;
}
