/**
 * Facts termination reads off a deleting NodeClaim: when its terminationGracePeriod runs out, and why it is
 * being deleted (the reason every Event, log line and metric label of the termination carries).
 */
import { AnnotationNodeClaimTerminationTimestamp } from '../../apis/v1/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { parseDurationMs } from '../disruption/duration.js';

/** Written by whoever deletes a NodeClaim (src/controllers/types.ts AnnotationDeletionReason). */
export const DeletionReasonAnnotation = 'karpenter-eu.io/deletion-reason';

/** The `reason` label values (metrics/registry.ts MetricReasons), repeated here because domain code imports no metrics. */
export const KnownDeletionReasons: readonly string[] = [
  'provisioned', 'expired', 'unhealthy', 'garbage_collected', 'empty', 'underutilized', 'drifted', 'launch_timeout', 'registration_timeout', 'insufficient_capacity', 'user',
];
/** No annotation means nobody in this service deleted it: a user did (kubectl delete). */
export const DefaultDeletionReason = 'user';

export interface ResolvedDeletionReason {
  /** A bounded label value. */
  reason: string;
  /** The annotation's value when it was not a known reason (kept for the log, never a label). */
  unrecognised?: string;
}

export function deletionReasonOf(nodeClaim: Pick<NodeClaim, 'metadata'>): ResolvedDeletionReason {
  const raw = nodeClaim.metadata?.annotations?.[DeletionReasonAnnotation];
  if (raw === undefined || raw === '') return { reason: DefaultDeletionReason };
  // Tolerate the hyphenated spelling (`garbage-collected`) some callers write.
  const normalised = raw.trim().toLowerCase().replaceAll('-', '_');
  if (KnownDeletionReasons.includes(normalised)) return { reason: normalised };
  return { reason: DefaultDeletionReason, unrecognised: raw };
}

function parseTime(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const ms = Date.parse(String(value));
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * When pods stop being waited for (epoch ms): the `karpenter.sh/nodeclaim-termination-timestamp`
 * annotation when set, else deletionTimestamp + spec.terminationGracePeriod; undefined without a TGP
 * (the drain then waits as long as PDBs and do-not-disrupt pods ask). A malformed TGP throws
 * InvalidDurationError naming the field.
 */
export function terminationDeadlineOf(nodeClaim: Pick<NodeClaim, 'metadata' | 'spec'>): number | undefined {
  const annotated = parseTime(nodeClaim.metadata?.annotations?.[AnnotationNodeClaimTerminationTimestamp]);
  if (annotated !== undefined) return annotated;
  const tgp = nodeClaim.spec?.terminationGracePeriod;
  const deleted = parseTime(nodeClaim.metadata?.deletionTimestamp);
  if (tgp === undefined || deleted === undefined) return undefined;
  return deleted + parseDurationMs('spec.terminationGracePeriod', tgp);
}
