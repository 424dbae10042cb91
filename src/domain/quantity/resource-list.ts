/**
 * ResourceList (src/domain/instancetypes/types.ts) from and to Kubernetes quantity maps, and the
 * arithmetic the scheduler does on it. Numbers are `cpu` in millicores, everything else in base units,
 * both rounded up as Quantity.MilliValue()/Value() round.
 */
import type { ResourceList } from '../instancetypes/types.js';
import { quantityMilliValue, quantityValue } from './arithmetic.js';
import { QuantityParseError, ResourceListParseError } from './errors.js';
import { formatQuantity } from './format.js';
import { type Quantity, type QuantityFormat, quantityFromMilli, quantityFromValue } from './quantity.js';
import { parseQuantity } from './parse.js';

export const ResourceCPU = 'cpu';
export const ResourceMemory = 'memory';
export const ResourceEphemeralStorage = 'ephemeral-storage';
export const ResourcePods = 'pods';

/** Quantity strings keyed by resource name, as in a pod spec (JSON numbers are accepted too). */
export type QuantityMap = Readonly<Record<string, string | number>>;

/**
 * Parsed amounts by `<resource>\0<text>`. A cluster holds few distinct quantity strings ("100m", "128Mi", a node
 * type's allocatable) but parses them for every pod on every extender call and snapshot; parsing is exact
 * BigInt arithmetic. A pure memo (same input, same output), bounded by being emptied when it grows large.
 */
const amounts = new Map<string, number>();
const MaxMemoizedAmounts = 10_000;

function memoizedAmount(name: string, raw: string | number): number {
  const key = `${name}\u0000${raw}`;
  const known = amounts.get(key);
  if (known !== undefined) return known;
  const amount = resourceAmount(name, parseResourceQuantity(name, raw));
  if (amounts.size >= MaxMemoizedAmounts) amounts.clear();
  amounts.set(key, amount);
  return amount;
}

export function parseResourceList(map: QuantityMap | undefined | null): ResourceList {
  const list: Record<string, number> = {};
  if (!map) return list;
  for (const name in map) list[name] = memoizedAmount(name, map[name] as string | number);
  return list;
}

/** One resource entry as a Quantity; the error names the resource and the value. */
export function parseResourceQuantity(name: string, raw: string | number): Quantity {
  try {
    return parseQuantity(typeof raw === 'number' ? String(raw) : raw);
  } catch (error) {
    if (error instanceof QuantityParseError) throw new ResourceListParseError(name, error);
    throw error;
  }
}

/** A quantity in the unit ResourceList uses for that resource (millicores for cpu). */
export function resourceAmount(name: string, quantity: Quantity): number {
  return name === ResourceCPU ? quantityMilliValue(quantity) : quantityValue(quantity);
}

/** The amount of a ResourceList entry as a Quantity in the notation Kubernetes uses for it. */
export function resourceQuantity(name: string, amount: number): Quantity {
  if (name === ResourceCPU) return quantityFromMilli(amount, 'DecimalSI');
  return quantityFromValue(amount, resourceFormat(name));
}

function resourceFormat(name: string): QuantityFormat {
  return name === ResourceMemory || name === ResourceEphemeralStorage || name.startsWith('hugepages-') ? 'BinarySI' : 'DecimalSI';
}

/** Back to quantity strings: cpu 1500 → "1500m", memory 1073741824 → "1Gi", pods 110 → "110". */
export function formatResourceList(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(list).sort()) out[name] = formatQuantity(resourceQuantity(name, list[name] as number));
  return out;
}

/** The sum of the lists, key by key. */
export function addResources(...lists: readonly ResourceList[]): ResourceList {
  const out: Record<string, number> = {};
  for (const list of lists) {
    for (const name in list) out[name] = (out[name] ?? 0) + (list[name] as number);
  }
  return out;
}

/** a − b key by key over the keys of both (missing counts as zero); results may be negative. */
export function subtractResources(a: ResourceList, b: ResourceList): ResourceList {
  const out: Record<string, number> = { ...a };
  for (const name in b) out[name] = (out[name] ?? 0) - (b[name] as number);
  return out;
}

/** The key-by-key maximum (Karpenter resources.MaxResources). */
export function maxResources(...lists: readonly ResourceList[]): ResourceList {
  const out: Record<string, number> = {};
  for (const list of lists) {
    for (const name in list) {
      const value = list[name] as number;
      const current = out[name];
      if (current === undefined || value > current) out[name] = value;
    }
  }
  return out;
}

/** Whether every requested amount is at most what `available` has (missing counts as zero), as resources.Fits. */
export function fitsResources(requests: ResourceList, available: ResourceList): boolean {
  for (const name in requests) {
    if ((requests[name] as number) > (available[name] ?? 0)) return false;
  }
  return true;
}

/** The resources of `requests` that do not fit in `available`, for failure messages. */
export function exceededResources(requests: ResourceList, available: ResourceList): string[] {
  const exceeded: string[] = [];
  for (const name in requests) {
    if ((requests[name] as number) > (available[name] ?? 0)) exceeded.push(name);
  }
  return exceeded.sort();
}

export function isZeroResources(list: ResourceList): boolean {
  for (const name in list) {
    if (list[name] !== 0) return false;
  }
  return true;
}
