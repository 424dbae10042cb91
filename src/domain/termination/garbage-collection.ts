/**
 * Garbage collection decisions, both ways. The lesson of the Outscale post-mortem is the first rule here:
 * a cloud listing that failed, timed out or came back partial decides NOTHING. Beyond that:
 * - a listed instance is leaked when no NodeClaim owns it, it is not already terminating, and it is older
 *   than the grace period (the NodeClaim write may still be on its way). A NodeClaim owns the instance its
 *   providerID names; by the NodeClaim name the cloud recorded, it owns an instance only while it has no
 *   providerID yet (its create is in flight). Once it names its instance, another one carrying its name is a
 *   duplicate (a launch retried where a listing lagged) and is leaked;
 * - a NodeClaim is only a *suspect* when it launched (has a providerID), is not deleting, is older than the
 *   grace period, its Node is not Ready and the complete listing lacks its instance. A suspect is deleted
 *   only after the cloud's `get` said "not found" on two consecutive passes (`confirmMissing`).
 */

export interface ListedInstance {
  providerID: string;
  nodeClaimName?: string;
  /** Epoch ms the cloud created it. */
  createdAt: number;
  terminating?: boolean;
}

/** What one cloud List gave. Anything but `complete` stops every deletion of the pass. */
export type InstanceListing =
  { kind: 'complete'; instances: readonly ListedInstance[] } | { kind: 'failed'; reason: string } | { kind: 'partial'; reason: string };

export interface NodeClaimView {
  name: string;
  providerID?: string;
  /** Epoch ms of metadata.creationTimestamp. */
  createdAt: number;
  deleting: boolean;
  /** Its Node exists and is Ready: proof enough that the instance lives. */
  nodeReady: boolean;
}

export interface GarbageCollectionInput {
  listing: InstanceListing;
  /** Read AFTER the listing, so a NodeClaim created meanwhile is seen. */
  nodeClaims: readonly NodeClaimView[];
  now: number;
  /** Instances and NodeClaims younger than this are never touched (upstream: 30 s). */
  gracePeriodMs: number;
}

export interface GarbageCollectionDecision {
  /** Cloud instances to delete (reason garbage_collected). */
  leakedInstances: ListedInstance[];
  /** NodeClaims whose instance the listing lacks: ask the cloud's `get` before anything else. */
  suspectNodeClaims: string[];
  /** Why nothing was decided, when the listing was not complete. */
  skipped?: { listing: 'failed' | 'partial'; reason: string };
}

export const DefaultGarbageCollectionGracePeriodMs = 30_000;

export function decideGarbageCollection(input: GarbageCollectionInput): GarbageCollectionDecision {
  const { listing } = input;
  if (listing.kind !== 'complete') {
    return { leakedInstances: [], suspectNodeClaims: [], skipped: { listing: listing.kind, reason: listing.reason } };
  }
  return {
    leakedInstances: leakedInstances(listing.instances, input),
    suspectNodeClaims: suspectNodeClaims(listing.instances, input),
  };
}

function leakedInstances(instances: readonly ListedInstance[], input: GarbageCollectionInput): ListedInstance[] {
  const ownedIDs = new Set(input.nodeClaims.flatMap((c) => (c.providerID ? [c.providerID] : [])));
  const launchingNames = new Set(input.nodeClaims.filter((c) => !c.providerID).map((c) => c.name));
  return instances.filter((instance) => {
    if (instance.terminating) return false;
    if (ownedIDs.has(instance.providerID)) return false;
    if (instance.nodeClaimName !== undefined && launchingNames.has(instance.nodeClaimName)) return false;
    // An unknown or future creation time is treated as "just created".
    return Number.isFinite(instance.createdAt) && input.now - instance.createdAt > input.gracePeriodMs;
  });
}

function suspectNodeClaims(instances: readonly ListedInstance[], input: GarbageCollectionInput): string[] {
  const listedIDs = new Set(instances.map((i) => i.providerID));
  return input.nodeClaims
    .filter((c) => c.providerID !== undefined && c.providerID !== '' && !c.deleting && !c.nodeReady)
    .filter((c) => Number.isFinite(c.createdAt) && input.now - c.createdAt > input.gracePeriodMs)
    .filter((c) => !listedIDs.has(c.providerID as string))
    .map((c) => c.name);
}

export interface MissingConfirmation {
  /** Missing on this pass and the one before: delete these NodeClaims. */
  confirmed: string[];
  /** Missing for the first time: remember them for the next pass. */
  missing: Set<string>;
}

/**
 * `previouslyMissing` are the NodeClaims the cloud's get called not-found on the last pass; `missingNow` on
 * this one. Only a NodeClaim in both is confirmed; any pass that did not see it missing starts over.
 */
export function confirmMissing(previouslyMissing: ReadonlySet<string>, missingNow: readonly string[]): MissingConfirmation {
  const confirmed = missingNow.filter((name) => previouslyMissing.has(name));
  return { confirmed, missing: new Set(missingNow) };
}
