/**
 * Facts termination reads off a deleting NodeClaim: when its terminationGracePeriod runs out. Why it is
 * being deleted is read with `deletionReasonOf` (apis/v1/deletion-reasons.ts).
 */
import { AnnotationNodeClaimTerminationTimestamp } from '../../apis/v1/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { parseDurationMs } from '../disruption/duration.js';

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
