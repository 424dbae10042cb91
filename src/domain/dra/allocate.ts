/**
 * Whether claims can be allocated together on one node's devices, as kube-scheduler's structured allocator
 * decides it: every request of every claim gets its own devices (never one device twice), `ExactCount` takes
 * `count` matching free devices, `All` takes every matching device and fails when one of them is taken or none
 * matches, `firstAvailable` takes the first subrequest that can be satisfied. A depth-first search with
 * backtracking (a node has a handful of devices), bounded so a pathological claim cannot stall the solve.
 */
import type { CompiledRequest, PodClaim, RequestAlternative } from './claims.js';

/** A device of one node as allocation sees it: a stable id (`driver/pool/device`). */
export interface NodeDevice {
  id: string;
}

export type Matches<D extends NodeDevice> = (alternative: RequestAlternative, device: D) => boolean;

/** Search steps before giving up (reported as not allocatable): far beyond what eight GPUs need. */
export const ALLOCATION_STEP_BUDGET = 20_000;

interface Search<D extends NodeDevice> {
  devices: readonly D[];
  requests: readonly CompiledRequest[];
  matches: Matches<D>;
  used: boolean[];
  steps: number;
}

/**
 * The ids of the devices an allocation of every claim would use, or undefined when none exists. `taken` are ids
 * allocated already (to claims of pods there).
 */
export function allocate<D extends NodeDevice>(
  devices: readonly D[],
  taken: ReadonlySet<string>,
  claims: readonly PodClaim[],
  matches: Matches<D>,
): string[] | undefined {
  const search: Search<D> = {
    devices,
    requests: claims.flatMap((c) => c.requests),
    matches,
    used: devices.map((d) => taken.has(d.id)),
    steps: 0,
  };
  if (!satisfyFrom(search, 0)) return undefined;
  return devices.filter((d, i) => search.used[i] && !taken.has(d.id)).map((d) => d.id);
}

function satisfyFrom<D extends NodeDevice>(search: Search<D>, index: number): boolean {
  const request = search.requests[index];
  if (!request) return true;
  for (const alt of request.alternatives) {
    const matching: number[] = [];
    for (let i = 0; i < search.devices.length; i++) if (search.matches(alt, search.devices[i] as D)) matching.push(i);
    if (alt.all ? takeAll(search, matching, index) : takeCount(search, matching, alt.count, { start: 0, index })) return true;
  }
  return false;
}

function takeAll<D extends NodeDevice>(search: Search<D>, matching: readonly number[], index: number): boolean {
  if (matching.length === 0 || matching.some((i) => search.used[i])) return false;
  for (const i of matching) search.used[i] = true;
  if (satisfyFrom(search, index + 1)) return true;
  for (const i of matching) search.used[i] = false;
  return false;
}

/** Picks `left` more of the matching free devices from position `start` on, then the next requests. */
function takeCount<D extends NodeDevice>(
  search: Search<D>,
  matching: readonly number[],
  left: number,
  at: { start: number; index: number },
): boolean {
  if (++search.steps > ALLOCATION_STEP_BUDGET) return false;
  if (left === 0) return satisfyFrom(search, at.index + 1);
  for (let k = at.start; k <= matching.length - left; k++) {
    const i = matching[k] as number;
    if (search.used[i]) continue;
    search.used[i] = true;
    if (takeCount(search, matching, left - 1, { start: k + 1, index: at.index })) return true;
    search.used[i] = false;
  }
  return false;
}
