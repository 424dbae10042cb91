/**
 * A NodeClaim being planned (Karpenter scheduling.NodeClaim): a NodePool, a pinned zone, a placeholder
 * hostname, the pods placed so far and the instance types that still fit them all, cheapest first. Pinning
 * the zone at creation keeps zone topology exact (every pod is counted in its final zone).
 */
import { LabelCapacityType, LabelHostname, LabelTopologyZone } from '../../apis/v1/labels.js';
import type { ResourceList } from '../instancetypes/types.js';
import { firstHostPortConflict, type HostPort } from '../pods/index.js';
import {
  AllowUndefinedWellKnownLabels,
  firstUntoleratedTaint,
  formatTaint,
  Requirement,
  type Requirements,
} from '../requirements/index.js';
import { resourcesFit } from '../nodepool/limits.js';
import { type PreparedNodePool, type PreparedType, typeMeets } from './nodepool-template.js';
import type { PodInfo } from './pod-info.js';
import type { Rejection, Topology } from './topology.js';
import type { PodClaim } from '../dra/index.js';

export interface Narrowed {
  requirements: Requirements;
  candidates: PreparedType[];
  /** The DRA claims the node allocates once the pod is added (unchanged when undefined). */
  claims?: readonly PodClaim[];
}

const noClaims: readonly PodClaim[] = [];
const noDevices: Rejection = { message: "no instance type's devices can allocate the pods' resource claims", monotone: false };
const notEnoughResources: Rejection = { message: 'not enough resources', monotone: false };
const noTypeFits: Rejection = { message: 'no instance type fits the pods', monotone: false };
const growsTooMuch: Rejection = { message: 'growing the claim costs more than a new node', monotone: false };
const tooExpensive: PreparedType[] = [];
/** Prices are sums of decimals: compare with a tolerance. A growth equal to a new node's price opens the new node. */
const PRICE_EPSILON = 1e-9;

export class ClaimSlot {
  readonly requests: Record<string, number>;
  readonly pods: PodInfo[];
  readonly hostPorts: HostPort[];
  /** The DRA claims of its pods, each once: every candidate type's devices can allocate them together. */
  claims: readonly PodClaim[];
  /**
   * Per resource, the largest allocatable among the candidates: a cheap first rejection test. It may be computed
   * over an earlier, longer candidate list (an upper bound stays a correct pre-test; `fitting` decides), and is
   * recomputed once the list has halved since — recomputing on every narrowing cost ~10 % of a 20,000-pod solve.
   */
  private maxAllocatable: Record<string, number> = {};
  private maxComputedFor = 0;
  private readonly labels: Record<string, string>;
  readonly domainOf = (key: string): string | undefined =>
    key === LabelHostname ? this.hostname : key === LabelTopologyZone ? this.zone : this.labels[key];

  // eslint-disable-next-line max-params -- opened once per new claim inside the solver loop; its callers pass the fields it keeps
  constructor(
    readonly hostname: string,
    readonly pool: PreparedNodePool,
    readonly zone: string,
    public requirements: Requirements,
    public candidates: PreparedType[],
    init?: { requests: Record<string, number>; pods: PodInfo[]; hostPorts: HostPort[]; claims: readonly PodClaim[] },
  ) {
    this.claims = init ? init.claims : [];
    this.requests = init ? { ...init.requests } : {};
    this.pods = init ? [...init.pods] : [];
    this.hostPorts = init ? [...init.hostPorts] : [];
    this.labels = { ...requirements.labels(), [LabelCapacityType]: 'on-demand' };
    this.refreshMax();
  }

  /** The slot as DRA claim homes name it. */
  get id(): string {
    return `claim/${this.hostname}`;
  }

  get cheapest(): PreparedType {
    return this.candidates[0] as PreparedType;
  }

  get price(): number {
    return this.cheapest.priceByZone.get(this.zone) as number;
  }

  /** Capacity the claim holds against its NodePool's limits: its cheapest type (the one launched). */
  get reserved(): ResourceList {
    return this.cheapest.type.capacity;
  }

  clone(): ClaimSlot {
    return new ClaimSlot(this.hostname, this.pool, this.zone, this.requirements, this.candidates, this);
  }

  /** Why the pod cannot join; on success the narrowed requirements and candidates to commit with `add`. */
  /** The narrowed requirements and candidates to commit with `add`, or why the pod cannot join. */
  /** `need`: the pod's DRA claims the node must allocate (all of them unless the caller knows some are here already). */
  tryAdd(
    pod: PodInfo,
    topology: Topology,
    maxPrice = Infinity,
    need: readonly PodClaim[] = pod.dra?.claims ?? noClaims,
  ): Narrowed | Rejection {
    for (const name in pod.requests) {
      if ((this.requests[name] ?? 0) + (pod.requests[name] as number) > (this.maxAllocatable[name] ?? 0)) return notEnoughResources;
    }
    const taint = firstUntoleratedTaint(this.pool.taints, pod.tolerations);
    if (taint) return { message: `did not tolerate taint ${formatTaint(taint)}`, monotone: true };
    let requirements = this.requirements;
    if (pod.hasRequirements) {
      const incompatible = requirements.compatible(pod.requirements, AllowUndefinedWellKnownLabels);
      if (incompatible) return { message: `incompatible requirements: ${incompatible.message}`, monotone: true };
      requirements = requirements.intersection(pod.requirements);
    }
    if (pod.hostPorts.length > 0 && firstHostPortConflict(pod.hostPorts, this.hostPorts))
      return { message: 'host port in use', monotone: true };
    const violation = topology.violation(pod, this.domainOf);
    if (violation) return violation;
    const claims = need.length > 0 ? [...this.claims, ...need] : undefined;
    const candidates = this.fitting(pod, requirements, maxPrice, claims);
    if (candidates === tooExpensive) return growsTooMuch;
    if (candidates.length === 0) return claims ? noDevices : noTypeFits;
    return claims ? { requirements, candidates, claims } : { requirements, candidates };
  }

  add(pod: PodInfo, narrowed: Narrowed, topology: Topology): void {
    const reservedBefore = this.pods.length > 0 ? this.reserved : {};
    for (const name in pod.requests) this.requests[name] = (this.requests[name] ?? 0) + (pod.requests[name] as number);
    this.pods.push(pod);
    this.hostPorts.push(...pod.hostPorts);
    this.requirements = narrowed.requirements;
    if (narrowed.claims) this.claims = narrowed.claims;
    if (narrowed.candidates !== this.candidates) {
      this.candidates = narrowed.candidates;
      if (this.candidates.length * 2 <= this.maxComputedFor) this.refreshMax();
    }
    reserveLimits(this.pool, reservedBefore, this.reserved);
    topology.record(pod, this.domainOf, 1);
  }

  /** Candidates that still fit with the pod added, keep within the NodePool limits and meet minValues. */
  private fitting(pod: PodInfo, requirements: Requirements, maxPrice: number, claims: readonly PodClaim[] | undefined): PreparedType[] {
    const reserved = this.pods.length > 0 ? this.reserved : {};
    const checkLimits = limitsBind(this.pool);
    const candidates = this.candidates;
    // Copied only from the first dropped candidate on: most pods narrow nothing, and this runs per pod per claim.
    let out: PreparedType[] | undefined;
    let kept = 0;
    for (let i = 0; i < candidates.length; i++) {
      const candidate = candidates[i] as PreparedType;
      const fits =
        fitsWith(this.requests, pod.requests, candidate.allocatable) &&
        (!pod.hasRequirements || typeMeets(requirements, candidate.type, this.zone)) &&
        (!checkLimits || resourcesFit(this.pool.remaining, candidate.type.capacity, reserved)) &&
        (claims === undefined || (pod.dra?.context.flavorFits(candidate.type, claims) ?? false));
      if (!fits) {
        out ??= candidates.slice(0, i);
        continue;
      }
      // The list is cheapest first: the first fit is the new price, so a too-dear growth stops the scan.
      if (kept === 0 && (candidate.priceByZone.get(this.zone) as number) >= maxPrice - PRICE_EPSILON) return tooExpensive;
      kept++;
      out?.push(candidate);
    }
    // The same list when nothing was dropped: `add` then skips recomputing the maxima.
    const result = out ?? candidates;
    return meetsMinValues(requirements, result) ? result : [];
  }

  private refreshMax(): void {
    const max: Record<string, number> = {};
    for (const c of this.candidates) {
      for (const name in c.allocatable)
        if ((c.allocatable[name] as number) > (max[name] ?? -Infinity)) max[name] = c.allocatable[name] as number;
    }
    this.maxAllocatable = max;
    this.maxComputedFor = this.candidates.length;
  }
}

/** Candidates always fit what is placed already, so only the keys of the extra pod need checking. */
function fitsWith(used: Readonly<Record<string, number>>, extra: ResourceList, allocatable: ResourceList): boolean {
  for (const name in extra) if ((used[name] ?? 0) + (extra[name] as number) > (allocatable[name] ?? 0)) return false;
  return true;
}

/** Moves the NodePool's remaining limits from one reservation to another (`nodes` is counted by the caller). */
export function reserveLimits(pool: PreparedNodePool, before: ResourceList, after: ResourceList): void {
  for (const name in pool.remaining) {
    if (name === 'nodes') continue;
    pool.remaining[name] = (pool.remaining[name] as number) + (before[name] ?? 0) - (after[name] ?? 0);
  }
}

/** Strict minValues: each key with minValues needs that many distinct label values among the candidates. */
export function meetsMinValues(requirements: Requirements, candidates: readonly PreparedType[]): boolean {
  if (!requirements.hasMinValues()) return true;
  for (const r of requirements.values()) {
    if (r.minValues === undefined) continue;
    const values = new Set<string>();
    for (const c of candidates) {
      const v = c.type.labels[r.key];
      if (v !== undefined) values.add(v);
    }
    if (values.size < r.minValues) return false;
  }
  return true;
}

/** Whether some limit is low enough to rule out one of the pool's types (else the per-type check is skipped). */
function limitsBind(pool: PreparedNodePool): boolean {
  for (const name in pool.remaining) {
    if (name !== 'nodes' && (pool.remaining[name] as number) < (pool.maxCapacity[name] ?? 0)) return true;
  }
  return false;
}

// eslint-disable-next-line max-params -- called per (type, pod) in the solver's inner loop: no argument object per call
function fitsFirstPod(
  pool: PreparedNodePool,
  c: PreparedType,
  pod: PodInfo,
  requirements: Requirements,
  zone: string,
  checkLimits: boolean,
): boolean {
  if (!fitsWith({}, pod.requests, c.allocatable)) return false;
  if (pod.hasRequirements && !typeMeets(requirements, c.type, zone)) return false;
  if (pod.dra && pod.dra.claims.length > 0 && !pod.dra.context.flavorFits(c.type, pod.dra.claims)) return false;
  return !checkLimits || resourcesFit(pool.remaining, c.type.capacity, {});
}

/** The cheapest price in a zone of a type fitting a first pod (minValues aside), or undefined. */
export function cheapestInZone(pool: PreparedNodePool, zone: string, pod: PodInfo, requirements: Requirements): number | undefined {
  const checkLimits = limitsBind(pool);
  for (const c of pool.typesByZone.get(zone) ?? []) {
    if (fitsFirstPod(pool, c, pod, requirements, zone, checkLimits)) return c.priceByZone.get(zone) as number;
  }
  return undefined;
}

/** Candidates of a pool for a first pod in one zone, cheapest first there. */
export function zoneCandidates(pool: PreparedNodePool, zone: string, pod: PodInfo, requirements: Requirements): PreparedType[] {
  const checkLimits = limitsBind(pool);
  const out = (pool.typesByZone.get(zone) ?? []).filter((c) => fitsFirstPod(pool, c, pod, requirements, zone, checkLimits));
  return meetsMinValues(requirements, out) ? out : [];
}

export function zoneRequirement(zone: string): Requirement {
  return Requirement.create(LabelTopologyZone, 'In', [zone]);
}
