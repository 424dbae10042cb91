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
import { ExtenderNodeColumns, type ResolvedNodes, UnknownSlot } from './node-columns.js';
import { combineScore, packingAfterPlacement, podCostOnNode, podDemand, priceScore, StateFactorsByCode } from './score.js';
import { MaxExtenderPriority, type ExtenderArgs, type ExtenderClusterView, type ExtenderNode, type HostPriorityList } from './types.js';

/** Score of a node the extender knows nothing about. */
export const UnknownNodeScore = Math.round(MaxExtenderPriority / 2);

/** A cost is ≥ 0 or NaN (beyond float range); this marks a node whose cost is unknown. */
const UnknownCost = -1;

/** The score 0..10 of each node of the call for the pod, in input order. */
export function scoreSlots({ columns, slots }: ResolvedNodes, pod: V1Pod): Uint8Array {
  const demand = podDemand(podRequestsOrEmpty(pod));
  // Costs in a typed array: boxed in a plain array they would be 5,000 heap numbers per call.
  const costs = new Float64Array(slots.length);
  let cheapest: number | undefined;
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i] as number;
    const cost = slot === UnknownSlot ? undefined : podCostOnNode(columns, slot, demand);
    costs[i] = cost ?? UnknownCost;
    if (cost !== undefined && (cheapest === undefined || cost < cheapest)) cheapest = cost;
  }
  const scores = new Uint8Array(slots.length);
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i] as number;
    if (slot === UnknownSlot) {
      scores[i] = UnknownNodeScore;
      continue;
    }
    const cost = costs[i] as number;
    const price = priceScore(cost === UnknownCost ? undefined : cost, cheapest);
    scores[i] = combineScore(StateFactorsByCode[columns.states[slot] as number] as number, packingAfterPlacement(columns, slot, demand), price);
  }
  return scores;
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
