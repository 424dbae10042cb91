/**
 * Initialization (Karpenter's lifecycle `initialization.go`): the registered Node is Ready, its startup and
 * start-up-ephemeral taints are gone and the extended resources the pods asked for are registered; then the
 * Node gets `karpenter.sh/initialized=true` and the NodeClaim turns Initialized and Ready.
 */
import type { NodeClaim } from '../../../apis/index.js';
import { LabelNodeInitialized } from '../../../apis/index.js';
import { ConditionInitialized, ConditionReady, initializationBlockers } from '../../../domain/provisioning/index.js';
import { Resources } from '../../../kube/resources.js';
import { nodeClaimRef, patchStatus } from './claim-writes.js';
import { type NodeStepDeps, nodeOf, syncNode } from './registration.js';

export type InitializeOutcome = { kind: 'initialized'; claim: NodeClaim } | { kind: 'waiting'; blockers: string[] };

export async function initialize(deps: NodeStepDeps, claim: NodeClaim): Promise<InitializeOutcome> {
  const node = nodeOf(deps.state, claim);
  if (!node) return { kind: 'waiting', blockers: ['node is not in the cache'] };
  // The kubelet may have written its taints back over ours (unregistered taint again): sync again.
  if (await syncNode(deps.kube, node, claim)) return { kind: 'waiting', blockers: ['node registration changes were re-applied'] };
  const blockers = initializationBlockers(node, claim);
  if (blockers.length > 0) return { kind: 'waiting', blockers };
  await deps.kube.patch(
    Resources.Node,
    { name: node.metadata?.name ?? '' },
    { type: 'merge', body: { metadata: { labels: { [LabelNodeInitialized]: 'true' } } } },
  );
  const updated = await patchStatus(deps.kube, claim, deps.clock.now(), {}, [
    { type: ConditionInitialized, status: 'True', reason: 'Initialized', message: '' },
    { type: ConditionReady, status: 'True', reason: 'Ready', message: '' },
  ]);
  void deps.events?.publish({
    involvedObject: nodeClaimRef(claim),
    type: 'Normal',
    reason: 'Initialized',
    message: `Status condition transitioned, Type: Initialized, Status: True, node ${node.metadata?.name ?? ''}`,
  });
  return { kind: 'initialized', claim: updated };
}
