/**
 * The extender's node score, 0..10 (MaxExtenderPriority):
 *
 *   score = round(10 × stateFactor × (0.6 × packing + 0.4 × priceScore))
 *
 * - packing: mean over cpu and memory of min(1, (requested + pod) / allocatable) — the node's utilisation
 *   after placement; 0 when the pod would not fit (a stale view), so full nodes win over empty ones and
 *   empty nodes are left to be consolidated away.
 * - priceScore: the pod's cost on the node is pricePerHour × its dominant share of the node
 *   (max over cpu and memory of pod / allocatable); the cheapest candidate scores 1, another cheapest/cost.
 *   A pod that costs nothing anywhere (no requests) scores 1 everywhere; a node without a known price 0.5.
 * - stateFactor: 1 for ok, 0.3 for consolidation candidates and drifted nodes (they are likely to be
 *   replaced, so a pod placed there moves again), 0 for nodes being disrupted or terminated.
 *
 * Packing weighs more than price because an extra pod on a busy node costs nothing more, while price
 * only separates nodes that would each hold it. kube-scheduler adds score × weight × 10; see
 * manifests/scheduler/README.md for the weight to configure.
 */
import type { ResourceList } from '../instancetypes/types.js';
import { ResourceCPU, ResourceMemory } from '../quantity/resource-list.js';
import { NodeStates, type ResolvedNodes, UnknownSlot } from './node-columns.js';
import { MaxExtenderPriority, MinExtenderPriority, type ExtenderNode, type ExtenderNodeState } from './types.js';

export const PackingWeight = 0.6;
export const PriceWeight = 0.4;
/** Price score of a node whose price is unknown: neither favoured nor avoided. */
export const UnknownPriceScore = 0.5;

export const StateFactors: Readonly<Record<ExtenderNodeState, number>> = {
  ok: 1,
  'consolidation-candidate': 0.3,
  drifted: 0.3,
  disrupting: 0,
  terminating: 0,
};

/**
 * The pod's requests in the form the per-node functions read fastest: they run for every node of every
 * prioritize call (5,000 nodes), so the pod's keys are listed once instead of enumerated per node.
 */
export interface PodDemand {
  cpu: number;
  memory: number;
  /** Every other positive request, as [resource, amount]. */
  others: readonly (readonly [string, number])[];
}

export function podDemand(pod: ResourceList): PodDemand {
  const others: [string, number][] = [];
  for (const name in pod) {
    if (name !== ResourceCPU && name !== ResourceMemory && (pod[name] as number) > 0) others.push([name, pod[name] as number]);
  }
  return { cpu: pod[ResourceCPU] ?? 0, memory: pod[ResourceMemory] ?? 0, others };
}

/** Whether the pod's requests of resources other than cpu and memory fit beside what the node runs. */
function othersFit(node: ExtenderNode | undefined, pod: PodDemand): boolean {
  if (!node) return false;
  for (let i = 0; i < pod.others.length; i++) {
    const [name, amount] = pod.others[i] as readonly [string, number];
    if (amount + (node.requested[name] ?? 0) > (node.allocatable[name] ?? 0)) return false;
  }
  return true;
}

/** Whether `amount` more of a resource fits (a pod asking none of it always does). */
function fitsBeside(amount: number, requested: number, allocatable: number): boolean {
  return !(amount > 0 && amount + requested > allocatable);
}

/** min(1, (requested + pod) / allocatable), 0 for a resource the node lacks. */
export function utilisation(requested: number, podAmount: number, allocatable: number): number {
  return allocatable > 0 ? Math.min(1, (requested + podAmount) / allocatable) : 0;
}

/** Packing from the cpu and memory utilisations after placement: their mean, or the one the node has. */
export function packing(cpuUse: number, memoryUse: number, cpuAllocatable: number, memoryAllocatable: number): number {
  if (cpuAllocatable > 0 && memoryAllocatable > 0) return (cpuUse + memoryUse) / 2;
  return cpuAllocatable > 0 ? cpuUse : memoryUse;
}

/** The pod's share of a resource of the node: 1 when the node lacks it, 0 when the pod asks none. */
export function share(request: number, allocatable: number): number {
  if (request <= 0) return 0;
  return allocatable > 0 ? Math.min(1, request / allocatable) : 1;
}

/**
 * A cost is ≥ 0 or NaN (beyond float range); this marks a node whose cost is unknown.
 *
 * The per-node functions below spell this value, and UnknownPriceScore, as literals: V8 (Node 20) reads a
 * module's constants as values of unknown type, and a number merged with one is boxed on the heap — 5,000
 * heap numbers per call, a scavenge every few dozen calls. Tests hold the literals to the constants.
 */
export const UnknownCost = -1;

/** EUR per hour the pod takes on a node of that price (its dominant share of it); UnknownCost for an unknown price. */
export function podCost(pricePerHour: number, cpuShare: number, memoryShare: number): number {
  return Number.isFinite(pricePerHour) && pricePerHour >= 0 ? pricePerHour * Math.max(cpuShare, memoryShare) : -1;
}

/** 0..1, relative to the cheapest known cost among the candidates (either UnknownCost: UnknownPriceScore). */
export function priceScore(cost: number, cheapest: number): number {
  if (cost === -1 || cheapest === -1) return 0.5;
  return cost <= 0 ? 1 : Math.min(1, cheapest / cost);
}

/**
 * The pod's cost on each node of the call into `costs` (UnknownCost where unknown); returns the cheapest known
 * cost (the first known one when none compares lower, as NaN does not), or UnknownCost when none is known.
 */
function podCosts({ columns, slots }: ResolvedNodes, pod: PodDemand, costs: Float64Array): number {
  const { pricePerHour, cpuAllocatable, memoryAllocatable } = columns;
  let cheapest = -1;
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i] as number;
    const cost =
      slot < 0
        ? -1
        : podCost(
            pricePerHour[slot] as number,
            share(pod.cpu, cpuAllocatable[slot] as number),
            share(pod.memory, memoryAllocatable[slot] as number),
          );
    costs[i] = cost;
    if (cost !== -1 && (cheapest === -1 || cost < cheapest)) cheapest = cost;
  }
  return cheapest;
}

/**
 * The score 0..10 of each node of the call for the pod, in input order (`unknownScore` for UnknownSlot).
 * Columns are read into locals and the per-node functions are a few operations each, so V8 inlines them:
 * a number passed to or returned from a call it does not inline is boxed on the heap, 5,000 times a call.
 */
export function nodeScores(resolved: ResolvedNodes, pod: PodDemand, unknownScore: number): Uint8Array {
  const { columns, slots } = resolved;
  const { cpuAllocatable, memoryAllocatable, cpuRequested, memoryRequested, states } = columns;
  const costs = new Float64Array(slots.length);
  const cheapest = podCosts(resolved, pod, costs);
  const scores = new Uint8Array(slots.length);
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i] as number;
    if (slot === UnknownSlot) {
      scores[i] = unknownScore;
      continue;
    }
    const cpu = cpuAllocatable[slot] as number;
    const memory = memoryAllocatable[slot] as number;
    const cpuInUse = cpuRequested[slot] as number;
    const memoryInUse = memoryRequested[slot] as number;
    // A pod that would not fit (a stale view) packs nothing.
    const fits =
      fitsBeside(pod.cpu, cpuInUse, cpu) &&
      fitsBeside(pod.memory, memoryInUse, memory) &&
      (pod.others.length === 0 || othersFit(columns.nodes[slot], pod));
    const packed = fits ? packing(utilisation(cpuInUse, pod.cpu, cpu), utilisation(memoryInUse, pod.memory, memory), cpu, memory) : 0;
    scores[i] = combineScore(StateFactorsByCode[states[slot] as number] as number, packed, priceScore(costs[i] as number, cheapest));
  }
  return scores;
}

/** StateFactors by state code (ExtenderNodeColumns.states). */
export const StateFactorsByCode = Float64Array.from(NodeStates, (state) => StateFactors[state]);

/** The integer score 0..10 from the three factors (`stateFactor`: StateFactors of the node's state). */
export function combineScore(stateFactor: number, packing: number, price: number): number {
  const raw = stateFactor * (PackingWeight * packing + PriceWeight * price);
  // Quantities beyond float range (1e400) make ratios NaN: score such a node as the least attractive.
  if (!Number.isFinite(raw)) return MinExtenderPriority;
  return Math.max(0, Math.min(MaxExtenderPriority, Math.round(MaxExtenderPriority * raw)));
}
