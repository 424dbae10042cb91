/** The NodeClaim writes the lifecycle steps share: status conditions and deletion with a reason. */
import type { NodeClaim, NodeClaimStatus } from '../../../apis/index.js';
import { type ConditionUpdate, setCondition } from '../../../domain/provisioning/index.js';
import type { DeletionReason } from '../../../apis/v1/deletion-reasons.js';
import type { EventRecorder } from '../../../kube/events.js';
import { Resources } from '../../../kube/resources.js';
import type { Kube } from '../../../kube/types.js';
import { deleteNodeClaimWithReason } from '../../termination/object-operations.js';

export function nodeClaimRef(claim: NodeClaim) {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    name: claim.metadata?.name ?? '',
    ...(claim.metadata?.uid ? { uid: claim.metadata.uid } : {}),
  };
}

/** Merge-patches the status with `fields` and the condition updates applied; returns the new object. */
export async function patchStatus(
  kube: Kube,
  claim: NodeClaim,
  now: number,
  fields: Partial<NodeClaimStatus>,
  updates: readonly ConditionUpdate[],
): Promise<NodeClaim> {
  let conditions = claim.status?.conditions;
  for (const u of updates) conditions = setCondition(conditions, u, now);
  const status = { ...fields, ...(updates.length > 0 ? { conditions } : {}) };
  return kube.patch<NodeClaim>(
    Resources.NodeClaim,
    { name: claim.metadata?.name ?? '' },
    { type: 'merge', body: { status } },
    { status: true },
  );
}

/**
 * Deletes the NodeClaim, first recording why (termination reports it), with a Warning Event. Termination's
 * finalizer does the cloud delete.
 */
export async function deleteWithReason(
  kube: Kube,
  events: EventRecorder | undefined,
  claim: NodeClaim,
  reason: DeletionReason,
  message: string,
): Promise<void> {
  if (!(await deleteNodeClaimWithReason(kube, claim, reason))) return;
  await events?.publish({
    involvedObject: nodeClaimRef(claim),
    type: 'Warning',
    reason: 'Deleting',
    message: `deleting nodeclaim: ${message}`,
  });
}
