/**
 * One drain pass over a Node: plan from the pods ClusterState sees on it, then evict / force-delete.
 * Returns true once nothing holds the node.
 */
import type { V1Node } from '@kubernetes/client-node';
import { planDrain, type PodRef } from '../../domain/termination/index.js';
import type { EventRecorder } from '../../kube/events.js';
import type { Kube } from '../../kube/types.js';
import type { ClusterState } from '../../state/cluster-state.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/logger.js';
import { executeDrainPass } from './drain-executor.js';
import { publishDrainBlocked } from './termination-reporting.js';

export interface NodeDrainerDeps {
  kube: Kube;
  state: ClusterState;
  clock: Clock;
  logger: Logger;
  events: EventRecorder;
}

const podName = (p: PodRef): string => `${p.namespace}/${p.name}`;

export async function drainNode(deps: NodeDrainerDeps, node: V1Node, terminationDeadline: number | undefined): Promise<boolean> {
  const name = node.metadata?.name ?? '';
  const now = deps.clock.now();
  const plan = planDrain({ pods: deps.state.podsOnNode(name), now, ...(terminationDeadline !== undefined ? { terminationDeadline } : {}) });
  if (plan.drained) return true;
  const result = await executeDrainPass(deps.kube, plan);
  const log = deps.logger.child({ node: name, group: plan.group });
  if (result.evicted.length > 0) log.info('evicted pods', { pods: result.evicted.map(podName) });
  if (result.forceDeleted.length > 0) {
    log.warn('termination grace period over, deleted pods', {
      pods: result.forceDeleted.map(podName),
      terminationDeadline: new Date(terminationDeadline ?? now).toISOString(),
    });
  }
  if (result.blockedByBudget.length > 0) {
    log.info('pod disruption budget refuses eviction, retrying later', { pods: result.blockedByBudget.map(podName) });
    publishDrainBlocked(deps.events, node, result.blockedByBudget.map(podName), 'a PodDisruptionBudget refuses the eviction');
  }
  for (const { pod, error } of result.failed) log.warn('evicting pod failed, retrying later', { pod: podName(pod), error });
  const waiting = plan.waitingFor.map(podName);
  if (waiting.length > 0) log.debug('drain waits for pods', { pods: waiting });
  return false;
}
