/**
 * The extender's prioritize verb: one score 0..10 per input node, in input order (formula in score.ts).
 * kube-scheduler ignores prioritize errors and skips the call when one node is left, so this never fails:
 * a node the view does not know gets the midpoint, neither attracting nor repelling the pod.
 * Two plain passes over the nodes (costs, then scores): this runs for every pod on clusters of thousands
 * of nodes, inside the scheduler's cycle.
 */
import { candidateNodes } from './candidates.js';
import { podRequestsOrEmpty } from './pod-facts.js';
import { combineScore, packingAfterPlacement, podCostOnNode, podDemand, type PodDemand, priceScore } from './score.js';
import { MaxExtenderPriority, type ExtenderArgs, type ExtenderClusterView, type ExtenderNode, type HostPriorityList } from './types.js';

/** Score of a node the extender knows nothing about. */
export const UnknownNodeScore = Math.round(MaxExtenderPriority / 2);

function scoreAll(names: readonly string[], nodes: readonly (ExtenderNode | undefined)[], pod: PodDemand): HostPriorityList {
  const costs = new Array<number | undefined>(nodes.length);
  let cheapest: number | undefined;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    const cost = node ? podCostOnNode(node, pod) : undefined;
    costs[i] = cost;
    if (cost !== undefined && (cheapest === undefined || cost < cheapest)) cheapest = cost;
  }
  const out: HostPriorityList = new Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    out[i] = { Host: names[i] as string, Score: node ? combineScore(node.state, packingAfterPlacement(node, pod), priceScore(costs[i], cheapest)) : UnknownNodeScore };
  }
  return out;
}

export function prioritize(args: ExtenderArgs, view: ExtenderClusterView): HostPriorityList {
  const pod = podDemand(podRequestsOrEmpty(args.Pod));
  if (!args.Nodes) {
    const names = args.NodeNames ?? [];
    return scoreAll(names, names.map((name) => view.get(name)), pod);
  }
  const candidates = candidateNodes(args, view);
  return scoreAll(candidates.map((c) => c.name), candidates.map((c) => c.node), pod);
}
