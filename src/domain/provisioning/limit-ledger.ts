/**
 * In-flight NodePool usage across concurrent batches (the limits rule itself: domain/nodepool/limits.ts). The usage cluster state reports lags behind:
 * a NodeClaim just created has no capacity yet (it is not launched) and may not even be in the informer
 * cache. So each batch reserves, before it creates a NodeClaim, the capacity of the planned instance type;
 * the reservation stands in for the claim until state shows it with a capacity, or it is released.
 * Pure bookkeeping: the caller passes what state shows and the time.
 */
import type { ResourceList } from '../instancetypes/types.js';
import type { NodePoolUsage } from '../nodepool/limits.js';
import { addResources } from '../quantity/index.js';

export interface LimitReservation {
  /** Unique per planned NodeClaim; set to the NodeClaim's name once created (see `nameReservation`). */
  id: string;
  nodePool: string;
  resources: ResourceList;
  /** When the reservation was made; reservations never seen in state are dropped after `staleAfterMs`. */
  reservedAt: number;
  /** The NodeClaim's name once the API server assigned it. */
  nodeClaimName?: string;
}

/** What state shows of one NodeClaim: enough to tell whether its usage is counted there already. */
export interface ObservedNodeClaim {
  name: string;
  /** True once `status.capacity` is set: state's usage includes its resources. */
  hasCapacity: boolean;
}

/** How long a named reservation may stay invisible in state before it is considered gone (deleted early). */
export const DefaultReservationStaleAfterMs = 60_000;

export class LimitLedger {
  private readonly reservations = new Map<string, LimitReservation>();
  private sequence = 0;

  constructor(private readonly staleAfterMs = DefaultReservationStaleAfterMs) {}

  /** A fresh reservation id. */
  nextId(): string {
    this.sequence += 1;
    return `reservation-${this.sequence}`;
  }

  reserve(reservation: LimitReservation): void {
    this.reservations.set(reservation.id, reservation);
  }

  /** The create call returned: the reservation now follows that NodeClaim. */
  nameReservation(id: string, nodeClaimName: string): void {
    const r = this.reservations.get(id);
    if (r) this.reservations.set(id, { ...r, nodeClaimName });
  }

  release(id: string): void {
    this.reservations.delete(id);
  }

  /** The NodeClaim is gone (deleted before it launched): its reservation goes too. */
  releaseNodeClaim(name: string): void {
    for (const [id, r] of this.reservations) if (r.nodeClaimName === name) this.reservations.delete(id);
  }

  get size(): number {
    return this.reservations.size;
  }

  /** Names of the NodeClaims whose reservations are still open. */
  nodeClaimNames(): Set<string> {
    const names = new Set<string>();
    for (const r of this.reservations.values()) if (r.nodeClaimName !== undefined) names.add(r.nodeClaimName);
    return names;
  }

  /**
   * Drops reservations state now accounts for (the claim has a capacity) or that went stale (named, never
   * seen, older than the stale window: the claim was deleted before the cache saw it).
   */
  reconcile(observed: readonly ObservedNodeClaim[], now: number): void {
    const byName = new Map(observed.map((o) => [o.name, o]));
    for (const [id, r] of this.reservations) {
      if (r.nodeClaimName === undefined) continue;
      const seen = byName.get(r.nodeClaimName);
      if (seen?.hasCapacity) this.reservations.delete(id);
      else if (!seen && now - r.reservedAt > this.staleAfterMs) this.reservations.delete(id);
    }
  }

  /**
   * State's usage of `nodePool` plus what its open reservations stand for: their resources always, and one
   * node each unless state already counts that NodeClaim as a node.
   */
  effectiveUsage(nodePool: string, usage: NodePoolUsage | undefined, observed: ReadonlySet<string>): NodePoolUsage {
    let resources = usage?.resources ?? {};
    let nodes = usage?.nodes ?? 0;
    for (const r of this.reservations.values()) {
      if (r.nodePool !== nodePool) continue;
      resources = addResources(resources, r.resources);
      if (r.nodeClaimName === undefined || !observed.has(r.nodeClaimName)) nodes += 1;
    }
    return { resources, nodes };
  }
}
