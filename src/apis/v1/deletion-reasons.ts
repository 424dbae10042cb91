/**
 * Why a NodeClaim was deleted: the one list of reasons, what each means, and the annotation carrying it.
 * Whoever deletes a NodeClaim writes the annotation first (the first writer's reason stands); termination
 * reads it back and reports that reason in its Event, its log lines and the `reason` label of its metrics.
 * No annotation means nobody in this service deleted it: a user did (`kubectl delete`).
 */
import type { NodeClaim } from './nodeclaim.js';
import type { DisruptionReason } from './nodepool.js';

export const AnnotationDeletionReason = 'karpenter-eu.io/deletion-reason';

/** The annotation's values; each is also a `reason` label value of the NodeClaim metrics (docs/metrics.md). */
export const DeletionReasons = {
  /** Consolidation: the node ran no workload pods (disruption, `consolidationPolicy`). */
  empty: 'empty',
  /** Consolidation: its pods fit elsewhere, or on a cheaper replacement. */
  underutilized: 'underutilized',
  /** The NodePool, its NodeClass or the cloud image changed since launch (disruption, drift). */
  drifted: 'drifted',
  /** Older than the NodePool's `expireAfter` (disruption, expiration). */
  expired: 'expired',
  /** Node repair: a Node condition matched its cloud's repair policy for longer than the toleration. */
  unhealthy: 'unhealthy',
  /** Its cloud instance no longer exists (garbage collection). */
  garbageCollected: 'garbage_collected',
  /** The cloud did not launch it in time (lifecycle). */
  launchTimeout: 'launch_timeout',
  /** Launched, but no Node registered in time (lifecycle). */
  registrationTimeout: 'registration_timeout',
  /** The cloud had no capacity for any of its offerings (lifecycle, launch). */
  insufficientCapacity: 'insufficient_capacity',
  /** A user deleted it (no annotation), or the Node went first and took its NodeClaim along (termination). */
  user: 'user',
} as const;
export type DeletionReason = (typeof DeletionReasons)[keyof typeof DeletionReasons];

/** The deletion reason of a NodeClaim a disruption method removes (a NodePool budget's reason names the method). */
export function deletionReasonOfDisruption(reason: DisruptionReason): DeletionReason {
  return reason === 'Empty' ? DeletionReasons.empty : reason === 'Drifted' ? DeletionReasons.drifted : DeletionReasons.underutilized;
}

const known: ReadonlySet<string> = new Set(Object.values(DeletionReasons));

export function isDeletionReason(value: string): value is DeletionReason {
  return known.has(value);
}

export interface ResolvedDeletionReason {
  reason: DeletionReason;
  /** The annotation's value when it was not a known reason (kept for the log, never a label). */
  unrecognised?: string;
}

/** The reason a deleting NodeClaim carries: a known value, `user` when absent or unknown. */
export function deletionReasonOf(nodeClaim: Pick<NodeClaim, 'metadata'>): ResolvedDeletionReason {
  const raw = nodeClaim.metadata?.annotations?.[AnnotationDeletionReason];
  if (raw === undefined || raw === '') return { reason: DeletionReasons.user };
  // Tolerate the hyphenated spelling (`garbage-collected`) a person may write by hand.
  const normalised = raw.trim().toLowerCase().replaceAll('-', '_');
  if (isDeletionReason(normalised)) return { reason: normalised };
  return { reason: DeletionReasons.user, unrecognised: raw };
}
