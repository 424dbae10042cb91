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
import { type ExtenderNodeColumns, NodeStates } from './node-columns.js';
import { MaxExtenderPriority, MinExtenderPriority, type ExtenderNodeState } from './types.js';

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

function fits(columns: ExtenderNodeColumns, slot: number, pod: PodDemand): boolean {
  if (pod.cpu > 0 && pod.cpu + (columns.cpuRequested[slot] as number) > (columns.cpuAllocatable[slot] as number)) return false;
  if (pod.memory > 0 && pod.memory + (columns.memoryRequested[slot] as number) > (columns.memoryAllocatable[slot] as number)) return false;
  if (pod.others.length === 0) return true;
  const node = columns.nodes[slot];
  if (!node) return false;
  for (let i = 0; i < pod.others.length; i++) {
    const [name, amount] = pod.others[i] as readonly [string, number];
    if (amount + (node.requested[name] ?? 0) > (node.allocatable[name] ?? 0)) return false;
  }
  return true;
}

function utilisation(requested: number, podAmount: number, allocatable: number): number {
  return Math.min(1, (requested + podAmount) / allocatable);
}

/** Utilisation of cpu and memory after placing the pod, 0..1 (0 when it does not fit or nothing is known). */
export function packingAfterPlacement(columns: ExtenderNodeColumns, slot: number, pod: PodDemand): number {
  if (!fits(columns, slot, pod)) return 0;
  const cpu = columns.cpuAllocatable[slot] as number;
  const memory = columns.memoryAllocatable[slot] as number;
  const cpuUse = cpu > 0 ? utilisation(columns.cpuRequested[slot] as number, pod.cpu, cpu) : 0;
  const memoryUse = memory > 0 ? utilisation(columns.memoryRequested[slot] as number, pod.memory, memory) : 0;
  if (cpu > 0 && memory > 0) return (cpuUse + memoryUse) / 2;
  return cpu > 0 ? cpuUse : memoryUse;
}

function share(request: number, allocatable: number): number {
  if (request <= 0) return 0;
  return allocatable > 0 ? Math.min(1, request / allocatable) : 1;
}

/** EUR per hour the pod takes on the node (its dominant share of the node's price); undefined when unknown. */
export function podCostOnNode(columns: ExtenderNodeColumns, slot: number, pod: PodDemand): number | undefined {
  const price = columns.pricePerHour[slot] as number;
  if (!Number.isFinite(price) || price < 0) return undefined;
  return price * Math.max(share(pod.cpu, columns.cpuAllocatable[slot] as number), share(pod.memory, columns.memoryAllocatable[slot] as number));
}

/** 0..1, relative to the cheapest known cost among the candidates (`cheapest` undefined: none known). */
export function priceScore(cost: number | undefined, cheapest: number | undefined): number {
  if (cost === undefined || cheapest === undefined) return UnknownPriceScore;
  if (cost <= 0) return 1;
  return Math.min(1, cheapest / cost);
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
