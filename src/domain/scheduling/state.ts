/**
 * The mutable state of one solve: prepared NodePools (with remaining limits), topology counts, existing
 * slots, planned NodeClaims and nodes per cloud (for cloud node caps such as MKS's per-cluster maximum).
 */
import type { ResourceList } from '../instancetypes/types.js';
import { addResources, subtractResources } from '../quantity/index.js';
import { isDaemonSetPod, podSchedulingRequests } from '../pods/index.js';
import { AllowUndefinedWellKnownLabels, firstUntoleratedTaint, strictPodRequirements } from '../requirements/index.js';
import { cheapestInZone, type ClaimSlot } from './claim-slot.js';
import type { ExistingSlot } from './existing-slot.js';
import type { PreparedNodePool } from './nodepool-template.js';
import type { PodInfo } from './pod-info.js';
import { Topology } from './topology.js';
import type { PodClaim } from '../dra/index.js';

const noClaims: readonly PodClaim[] = [];
import type { ExistingNode, PodLike } from './types.js';

export class SchedulingState {
  readonly topology = new Topology();
  readonly existing: ExistingSlot[] = [];
  claims: ClaimSlot[] = [];
  /** cloud -> nodes it has in the cluster (existing + planned). */
  readonly cloudNodes = new Map<string, number>();
  /** pod shape -> index of the first planned claim that may still accept it (see placeInClaims). */
  readonly cursors = new Map<string, number>();
  /** Shared ResourceClaim key -> the slot (`ExistingSlot.id` / `ClaimSlot.id`) a pod of this solve allocated it on. */
  readonly claimHomes = new Map<string, string>();
  private hostnames = 0;
  private readonly standalone = new Map<string, number>(); // pod key -> cheapest new node for it alone

  constructor(
    readonly pools: readonly PreparedNodePool[],
    private readonly cloudNodeCaps: Readonly<Record<string, number>>,
    /** Refuse to grow a planned claim's type when a new node for the pod alone is cheaper than the growth. */
    readonly costAware: boolean,
  ) {}

  /** The cheapest offering any NodePool has for the pod alone (topology aside); Infinity when none. */
  standalonePrice(pod: PodInfo): number {
    let price = this.standalone.get(pod.key);
    if (price !== undefined) return price;
    price = Infinity;
    for (const pool of this.pools) {
      if (firstUntoleratedTaint(pool.taints, pod.tolerations)) continue;
      if (pod.hasRequirements && !pool.requirements.isCompatible(pod.requirements, AllowUndefinedWellKnownLabels)) continue;
      const requirements = pod.hasRequirements ? pool.requirements.intersection(pod.requirements) : pool.requirements;
      for (const zone of pool.zones) price = Math.min(price, cheapestInZone(pool, zone, pod, requirements) ?? Infinity);
    }
    this.standalone.set(pod.key, price);
    return price;
  }

  /**
   * The pod's claims a slot must allocate for it there, or why the pod cannot land there: a claim allocated in the
   * cluster, or by an earlier pod of this solve, on another node (its devices are there; a claim is allocated once).
   */
  claimsToAllocate(pod: PodInfo, slotId: string): readonly PodClaim[] | string {
    const dra = pod.dra;
    if (!dra) return noClaims;
    for (const claim of dra.pinned)
      if (`node/${claim.allocated?.node}` !== slotId) return `ResourceClaim ${claim.key} is allocated on node ${claim.allocated?.node}`;
    let out: PodClaim[] | undefined;
    for (let i = 0; i < dra.claims.length; i++) {
      const claim = dra.claims[i] as PodClaim;
      const home = claim.shared ? this.claimHomes.get(claim.key) : undefined;
      if (home === undefined) {
        out?.push(claim);
        continue;
      }
      if (home !== slotId) return `ResourceClaim ${claim.key} is allocated with another pod's on ${home}`;
      out ??= dra.claims.slice(0, i);
    }
    return out ?? dra.claims;
  }

  /** Records where the pod's shared claims were allocated: their other pods can only go there. */
  homeClaims(claims: readonly PodClaim[], slotId: string): void {
    for (const claim of claims) if (claim.shared) this.claimHomes.set(claim.key, slotId);
  }

  /** The placeholder hostname the next new NodeClaim gets (upstream `hostname-placeholder-NNNN`). */
  nextHostname(): string {
    return `hostname-placeholder-${String(this.hostnames).padStart(4, '0')}`;
  }

  cloudCapReason(pool: PreparedNodePool): string | undefined {
    const cap = pool.cloud === undefined ? undefined : this.cloudNodeCaps[pool.cloud];
    if (cap === undefined || (this.cloudNodes.get(pool.cloud as string) ?? 0) < cap) return undefined;
    return `the ${pool.cloud} node cap of ${cap} nodes is reached`;
  }

  commitNewClaim(claim: ClaimSlot, pod: PodInfo): void {
    this.hostnames++;
    const claims = pod.dra?.claims ?? noClaims;
    claim.add(pod, { requirements: claim.requirements, candidates: claim.candidates, claims }, this.topology);
    this.homeClaims(claims, claim.id);
    adjustNodeCount(this, claim.pool, 1);
    this.claims.push(claim);
  }

  /** DaemonSet pods an in-flight NodeClaim will run but has not bound yet. */
  /**
   * What the DaemonSets that will run on an in-flight node still need there: their requests, less those of
   * their pods already bound to it (a joining node runs them before it is initialized; counted once, as upstream).
   */
  inFlightOverhead(node: ExistingNode, daemonSets: readonly PodLike[]): ResourceList {
    const parts = daemonSets.filter(
      (ds) =>
        !firstUntoleratedTaint(node.taints, ds.spec?.tolerations, ['NoSchedule', 'NoExecute']) &&
        strictPodRequirements(ds).matchesLabels(node.labels),
    );
    const bound = node.pods.filter(isDaemonSetPod).map((p) => podSchedulingRequests(p));
    const remaining = subtractResources(addResources(...parts.map((ds) => podSchedulingRequests(ds))), addResources(...bound));
    return Object.fromEntries(Object.entries(remaining).map(([name, value]) => [name, Math.max(0, value)]));
  }
}

/** Counts a NodeClaim in (+1) or out (−1) of its NodePool's `limits.nodes` and its cloud's node count. */
export function adjustNodeCount(state: SchedulingState, pool: PreparedNodePool, delta: 1 | -1): void {
  if (pool.remaining.nodes !== undefined) pool.remaining.nodes -= delta;
  if (pool.cloud !== undefined) state.cloudNodes.set(pool.cloud, (state.cloudNodes.get(pool.cloud) ?? 0) + delta);
}

/**
 * First fit over planned NodeClaims; true when the pod was added to one. Per pod shape (`classKey`) a
 * cursor skips the leading claims that refused that shape for a reason that cannot go away while pods are
 * only added (anti-affinity, hostname spread, taints, requirements): the scan stays short with thousands
 * of single-pod claims.
 */
export function placeInClaims(state: SchedulingState, pod: PodInfo): boolean {
  const claims = state.claims;
  let cursor = state.cursors.get(pod.classKey) ?? 0;
  let advancing = true;
  for (let i = cursor; i < claims.length; i++) {
    const claim = claims[i] as ClaimSlot;
    // Growing the claim must cost less than a node for the pod alone (no limit when the claim keeps its type).
    const maxPrice = state.costAware ? Math.max(claim.price + state.standalonePrice(pod), claim.price + 2e-9) : Infinity;
    const need = state.claimsToAllocate(pod, claim.id);
    const narrowed = typeof need === 'string' ? { message: need, monotone: false } : claim.tryAdd(pod, state.topology, maxPrice, need);
    if ('message' in narrowed) {
      if (advancing && narrowed.monotone) cursor = i + 1;
      else advancing = false;
      continue;
    }
    claim.add(pod, narrowed, state.topology);
    state.homeClaims(need as readonly PodClaim[], claim.id);
    state.cursors.set(pod.classKey, cursor);
    return true;
  }
  state.cursors.set(pod.classKey, cursor);
  return false;
}
