/**
 * Marks a NodeClaim the first time a pod other than a DaemonSet's is bound to its Node (one write per
 * NodeClaim, kept on the object so it survives restarts). Termination reads the mark: a launched NodeClaim
 * removed without it was capacity paid for and never used, which it reports as a metric and an Event.
 */
import { AnnotationWorkloadBound, type NodeClaim } from '../../../apis/index.js';
import { isDaemonSetPod } from '../../../domain/pods/index.js';
import { ignoreKubeNotFound } from '../../../kube/errors.js';
import { Resources } from '../../../kube/resources.js';
import type { Kube } from '../../../kube/types.js';
import type { ClusterState } from '../../../state/index.js';
import type { Clock } from '../../../util/clock.js';
import type { Logger } from '../../../util/logger.js';

export interface WorkloadMarkerDeps {
  kube: Kube;
  state: ClusterState;
  clock: Clock;
  logger: Logger;
}

/** The NodeClaim of the node, when it has one without the mark and a workload pod is bound there. */
function unmarkedClaim(state: ClusterState, nodeName: string): NodeClaim | undefined {
  const providerID = state.node(nodeName)?.spec?.providerID;
  const claim = providerID ? state.nodeClaimByProvider(providerID) : undefined;
  if (!claim || claim.metadata?.deletionTimestamp || claim.metadata?.annotations?.[AnnotationWorkloadBound] !== undefined) return undefined;
  return state.podsOnNode(nodeName).some((p) => !isDaemonSetPod(p)) ? claim : undefined;
}

/** Watches state for workload pods on managed nodes until `signal` aborts. */
export function markWorkloadBound(deps: WorkloadMarkerDeps, signal: AbortSignal): void {
  const marking = new Set<string>();
  const mark = (claim: NodeClaim): void => {
    const name = claim.metadata?.name ?? '';
    if (marking.has(name)) return;
    marking.add(name);
    const annotations = { [AnnotationWorkloadBound]: new Date(deps.clock.now()).toISOString() };
    void deps.kube
      .patch(Resources.NodeClaim, { name }, { type: 'merge', body: { metadata: { annotations } } })
      .catch(ignoreKubeNotFound)
      .catch((error: unknown) =>
        deps.logger.warn('marking nodeclaim as used failed; retried on its next pod change', { nodeclaim: name, error: error as Error }),
      )
      .finally(() => marking.delete(name));
  };
  const check = (nodeName: string): void => {
    if (signal.aborted) return;
    const claim = unmarkedClaim(deps.state, nodeName);
    if (claim) mark(claim);
  };
  deps.state.onNodeChange(check);
  for (const n of deps.state.stateNodes()) if (n.node) check(n.name);
}
