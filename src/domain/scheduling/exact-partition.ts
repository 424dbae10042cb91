/**
 * The exact cheapest packing of a small group of new NodeClaims. The portfolio of greedy passes is within a few
 * percent of the optimum on average but can miss it badly on a handful of pods (18 % on the worst of 200 small
 * benchmark instances): a batch of a few pending pods is the common case, so for NodeClaims of one NodePool that
 * hold at most `MaxExactPods` plain pods, every partition of those pods into nodes is priced (dynamic programming
 * over subsets, 3^n steps) and the cheapest is kept when it beats the plan. The model prices a part as the cheapest
 * type whose allocatable (DaemonSet overhead off) holds it; each chosen part is then planned by the solver itself,
 * so claims keep their requirements, options and zone, and the result is kept only if it is really cheaper and
 * within the NodePool's limits.
 * "Plain" is conservative: no topology terms, no node requirements, no host ports anywhere in the batch.
 */
import type { InstanceType, ResourceList } from '../instancetypes/types.js';
import { addResources } from '../quantity/index.js';
import { exceededLimits, remainingLimits } from '../nodepool/limits.js';
import { minPrice, prepareNodePool, type PreparedType } from './nodepool-template.js';
import { podKey } from '../pods/facts.js';
import { compilePod, type PodInfo } from './pod-info.js';
import type { PlannedNodeClaim, PodLike, SchedulingInput, SchedulingNodePool, SchedulingResult } from './types.js';

/** 3^12 ≈ 531,000 DP steps, a few milliseconds: small batches only. */
export const MaxExactPods = 12;

type Solve = (input: SchedulingInput) => SchedulingResult;

function isPlain(pod: PodInfo): boolean {
  // The price model knows nothing of devices: pods with resource claims are left to the solver.
  return pod.terms.length === 0 && !pod.hasRequirements && pod.hostPorts.length === 0 && !pod.pod.spec?.resourceClaims?.length;
}

function fits(requests: ResourceList, allocatable: ResourceList): boolean {
  for (const name in requests) if ((requests[name] as number) > 0 && (requests[name] as number) > (allocatable[name] ?? 0)) return false;
  return true;
}

/** The price of the cheapest type holding `requests`; Infinity when none does. */
function partPrice(types: readonly PreparedType[], requests: ResourceList): number {
  let best = Infinity;
  for (const t of types) if (fits(requests, t.allocatable)) best = Math.min(best, minPrice(t));
  return best;
}

/** The cheapest partition of `pods` (≤ MaxExactPods) under the price model, as lists of indexes. */
export function cheapestPartition(requests: readonly ResourceList[], types: readonly PreparedType[]): { price: number; parts: number[][] } {
  const n = requests.length;
  const full = (1 << n) - 1;
  const cost = new Float64Array(full + 1);
  for (let mask = 1; mask <= full; mask++) {
    const parts: ResourceList[] = [];
    for (let i = 0; i < n; i++) if (mask & (1 << i)) parts.push(requests[i] as ResourceList);
    cost[mask] = partPrice(types, addResources(...parts)); // pod requests count `pods: 1` each
  }
  const best = new Float64Array(full + 1).fill(Infinity);
  const choice = new Int32Array(full + 1);
  best[0] = 0;
  for (let mask = 1; mask <= full; mask++) {
    const low = mask & -mask; // the part holding the lowest pod: each partition is met once
    for (let sub = mask; sub > 0; sub = (sub - 1) & mask) {
      if (!(sub & low)) continue;
      const total = (cost[sub] as number) + (best[mask ^ sub] as number);
      if (total < (best[mask] as number)) {
        best[mask] = total;
        choice[mask] = sub;
      }
    }
  }
  const parts: number[][] = [];
  for (let mask = full; mask > 0 && Number.isFinite(best[mask] as number); mask ^= choice[mask] as number) {
    const sub = choice[mask] as number;
    parts.push([...Array(n).keys()].filter((i) => sub & (1 << i)));
  }
  return { price: best[full] as number, parts };
}

function hostnameIndex(hostname: string): number {
  const m = /-(\d+)$/.exec(hostname);
  return m ? Number(m[1]) : 0;
}

/** Whether the claims' capacity stays within what the NodePool's limits still allow. */
function withinPoolLimits(pool: SchedulingNodePool, claims: readonly PlannedNodeClaim[]): boolean {
  const byName = new Map<string, InstanceType>(pool.instanceTypes.map((t) => [t.name, t]));
  const capacity = addResources(...claims.map((c) => byName.get(c.instanceType)?.capacity ?? {}));
  return exceededLimits(remainingLimits(pool.limits, pool.usage), capacity, claims.length).length === 0;
}

/** Each part planned by the solver alone: one claim holding all its pods, or undefined. */
function planParts(
  solve: Solve,
  input: SchedulingInput,
  pool: SchedulingNodePool,
  parts: readonly PodLike[][],
  firstHostname: number,
): PlannedNodeClaim[] | undefined {
  const claims: PlannedNodeClaim[] = [];
  for (const [i, pods] of parts.entries()) {
    const sub = solve({
      pods,
      nodePools: [pool],
      ...(input.daemonSets ? { daemonSets: input.daemonSets } : {}),
      options: { ...input.options, optimize: false },
    });
    const claim = sub.newNodeClaims[0];
    if (sub.unschedulable.length > 0 || sub.newNodeClaims.length !== 1 || !claim || claim.pods.length !== pods.length) return undefined;
    claims.push({ ...claim, hostname: `hostname-placeholder-${String(firstHostname + i).padStart(4, '0')}` });
  }
  return claims;
}

/** `result` with each small group of one NodePool's new claims repacked exactly, where that is cheaper. */
export function improveSmallGroups(input: SchedulingInput, result: SchedulingResult, solve: Solve): SchedulingResult {
  const small = input.nodePools.some((pool) => {
    const pods = result.newNodeClaims.filter((c) => c.nodePool === pool.name).reduce((n, c) => n + c.pods.length, 0);
    return pods > 0 && pods <= MaxExactPods;
  });
  if (!small) return result; // before compiling every pod of a big batch
  let compiled: PodInfo[];
  try {
    compiled = input.pods.map((p) => compilePod(p));
  } catch {
    return result; // a pod the solver could not read either: nothing to improve safely
  }
  if (!compiled.every(isPlain)) return result;
  const podsByKey = new Map(input.pods.map((p) => [podKey(p), p]));
  const infoByKey = new Map(compiled.map((p) => [p.key, p]));
  let claims = result.newNodeClaims;
  let nextHostname = Math.max(...claims.map((c) => hostnameIndex(c.hostname))) + 1;
  for (const pool of input.nodePools) {
    const group = claims.filter((c) => c.nodePool === pool.name);
    const keys = group.flatMap((c) => c.pods);
    if (group.length === 0 || keys.length > MaxExactPods) continue;
    const prepared = prepareNodePool(pool, input.daemonSets ?? []);
    const { price, parts } = cheapestPartition(
      keys.map((k) => (infoByKey.get(k) as PodInfo).requests),
      prepared.types,
    );
    const current = group.reduce((sum, c) => sum + c.pricePerHour, 0);
    if (!(price < current - 1e-9)) continue;
    const planned = planParts(
      solve,
      input,
      pool,
      parts.map((part) => part.map((i) => podsByKey.get(keys[i] as string) as PodLike)),
      nextHostname,
    );
    if (!planned || !withinPoolLimits(pool, planned)) continue;
    if (planned.reduce((sum, c) => sum + c.pricePerHour, 0) >= current - 1e-9) continue;
    nextHostname += planned.length;
    claims = [...claims.filter((c) => c.nodePool !== pool.name), ...planned];
  }
  if (claims === result.newNodeClaims) return result;
  const total = claims.reduce((sum, c) => sum + c.pricePerHour, 0);
  return { ...result, newNodeClaims: claims, totalPricePerHour: Math.round(total * 1e6) / 1e6 };
}
