/**
 * Garbage collection of what a provider allocates for a NodeClaim besides its instance (Outscale flexible
 * GPUs: billed while allocated, linked or not). A resource is an orphan when no instance holds it and the
 * NodeClaim it was made for no longer exists. The cloud gives no creation time for every such resource, so
 * the grace period runs from the first pass that saw it orphaned, over consecutive readable passes: a pass
 * that could not read the resources or the NodeClaims forgets every sighting.
 */

export interface ClaimResourceView {
  id: string;
  nodeClaimName: string;
  /** Held by an instance: it goes with that instance, never collected on its own. */
  attached: boolean;
}

export interface ClaimResourceInput {
  resources: readonly ClaimResourceView[];
  /** Names of the NodeClaims that exist, read AFTER the resources (a NodeClaim created meanwhile is seen). */
  nodeClaimNames: ReadonlySet<string>;
  /** Resource id → epoch ms of the first consecutive pass that saw it orphaned. */
  orphanedSince: ReadonlyMap<string, number>;
  now: number;
  gracePeriodMs: number;
}

export interface ClaimResourceDecision {
  /** Orphans past the grace period: delete them. */
  collect: ClaimResourceView[];
  /** Orphans still within it, with when they were first seen: the next pass's `orphanedSince`. */
  orphanedSince: Map<string, number>;
}

export function decideClaimResources(input: ClaimResourceInput): ClaimResourceDecision {
  const collect: ClaimResourceView[] = [];
  const orphanedSince = new Map<string, number>();
  for (const resource of input.resources) {
    if (resource.attached || input.nodeClaimNames.has(resource.nodeClaimName)) continue;
    const since = input.orphanedSince.get(resource.id) ?? input.now;
    if (input.now - since >= input.gracePeriodMs) collect.push(resource);
    else orphanedSince.set(resource.id, since);
  }
  return { collect, orphanedSince };
}
