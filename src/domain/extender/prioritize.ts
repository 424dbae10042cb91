/**
 * The extender's prioritize verb: one score 0..10 per input node, in input order (formula in score.ts).
 * kube-scheduler ignores prioritize errors and skips the call when one node is left, so this never fails:
 * a node the view does not know gets the midpoint, neither attracting nor repelling the pod.
 */
import { candidateNodes } from './candidates.js';
import { podRequestsOrEmpty } from './pod-facts.js';
import { combineScore, packingAfterPlacement, podCostOnNode, priceScore } from './score.js';
import { MaxExtenderPriority, type ExtenderArgs, type ExtenderClusterView, type HostPriorityList } from './types.js';

/** Score of a node the extender knows nothing about. */
export const UnknownNodeScore = Math.round(MaxExtenderPriority / 2);

export function prioritize(args: ExtenderArgs, view: ExtenderClusterView): HostPriorityList {
  const pod = podRequestsOrEmpty(args.Pod);
  const candidates = candidateNodes(args, view);
  const costs = candidates.map(({ node }) => (node ? podCostOnNode(node, pod) : undefined));
  let cheapest: number | undefined;
  for (const cost of costs) if (cost !== undefined && (cheapest === undefined || cost < cheapest)) cheapest = cost;
  return candidates.map(({ name, node }, i) => ({
    Host: name,
    Score: node ? combineScore(node.state, packingAfterPlacement(node, pod), priceScore(costs[i], cheapest)) : UnknownNodeScore,
  }));
}
