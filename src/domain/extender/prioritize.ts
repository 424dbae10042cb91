/**
 * The extender's prioritize verb: one score 0..10 per input node, in input order (formula in score.ts).
 * kube-scheduler ignores prioritize errors and skips the call when one node is left, so this never fails:
 * a node the view does not know gets the midpoint, neither attracting nor repelling the pod.
 * Two plain passes over the nodes (costs, then scores): this runs for every pod on clusters of thousands
 * of nodes, inside the scheduler's cycle.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { candidateNodes } from './candidates.js';
import { podRequestsOrEmpty } from './pod-facts.js';
import { ExtenderNodeColumns, type ResolvedNodes } from './node-columns.js';
import { nodeScores, podDemand } from './score.js';
import { MaxExtenderPriority, type ExtenderArgs, type ExtenderClusterView, type ExtenderNode, type HostPriorityList } from './types.js';

/** Score of a node the extender knows nothing about. */
export const UnknownNodeScore = Math.round(MaxExtenderPriority / 2);

/** The score 0..10 of each node of the call for the pod, in input order. */
export function scoreSlots(resolved: ResolvedNodes, pod: V1Pod): Uint8Array {
  return nodeScores(resolved, podDemand(podRequestsOrEmpty(pod)), UnknownNodeScore);
}

/** scoreSlots for nodes given one by one (undefined: a node the view does not know). */
export function scoreNodes(nodes: readonly (ExtenderNode | undefined)[], pod: V1Pod): Uint8Array {
  return scoreSlots(ExtenderNodeColumns.of(nodes), pod);
}

export function prioritize(args: ExtenderArgs, view: ExtenderClusterView): HostPriorityList {
  const candidates = candidateNodes(args, view);
  const scores = scoreNodes(
    candidates.map((c) => c.node),
    args.Pod,
  );
  return candidates.map((c, i) => ({ Host: c.name, Score: scores[i] as number }));
}
