/**
 * NodePool `spec.limits`, the one rule: what a NodePool may still add — the limits less its usage, usage being
 * the capacity of its nodes and in-flight NodeClaims and `nodes` their count — and whether an addition fits.
 * As upstream Karpenter: the scheduler drops instance types whose capacity exceeds the remaining, the
 * provisioner checks again before each create, and consolidation simulates with the usage of the nodes that stay.
 * An addition fits while usage + addition ≤ limit; a resource without a limit is unlimited.
 */
import type { ResourceList } from '../instancetypes/types.js';
import { addResources, parseResourceList, type QuantityMap } from '../quantity/index.js';

/** The limit on the node count, beside the resource names. */
export const NodesLimit = 'nodes';

/** What one NodePool uses: the summed capacity of its nodes, and how many there are. */
export interface NodePoolUsage {
  resources: ResourceList;
  nodes: number;
}

/** resource (or `nodes`) -> what the limits still allow; absent = unlimited. Negative once over a lowered limit. */
export type RemainingLimits = Record<string, number>;

/** `spec.limits` as a ResourceList (`nodes` included); empty when the NodePool has none. Throws on a bad quantity. */
export function parseLimits(limits: QuantityMap | undefined): ResourceList {
  return parseResourceList(limits);
}

/** The capacity a node counts for: its Node's, else its NodeClaim's; a malformed quantity counts as nothing. */
export function usageCapacity(nodeCapacity: QuantityMap | undefined, nodeClaimCapacity: QuantityMap | undefined): ResourceList {
  try {
    return parseResourceList(nodeCapacity ?? nodeClaimCapacity);
  } catch {
    return {};
  }
}

/** Usage per NodePool of the given nodes (each with its NodePool and capacity). */
export function usageByNodePool(nodes: Iterable<{ nodePool?: string; capacity: ResourceList }>): Record<string, NodePoolUsage> {
  const usage: Record<string, NodePoolUsage> = {};
  for (const n of nodes) {
    if (n.nodePool === undefined) continue;
    const current = usage[n.nodePool] ?? { resources: {}, nodes: 0 };
    usage[n.nodePool] = { resources: addResources(current.resources, n.capacity), nodes: current.nodes + 1 };
  }
  return usage;
}

/** Usage as one ResourceList, the node count under `nodes` (the scheduling input's form). */
export function usageAsResourceList(usage: NodePoolUsage | undefined): ResourceList {
  return { ...(usage?.resources ?? {}), [NodesLimit]: usage?.nodes ?? 0 };
}

/** What the limits still allow given the usage (both ResourceLists, `nodes` included). */
export function remainingLimits(limits: ResourceList | undefined, usage: ResourceList | undefined): RemainingLimits {
  const remaining: RemainingLimits = {};
  for (const [name, limit] of Object.entries(limits ?? {})) remaining[name] = limit - (usage?.[name] ?? 0);
  return remaining;
}

/**
 * The limits that adding `nodes` nodes of `capacity` in all would exceed; empty when the addition fits.
 * `released` is capacity the addition replaces (a planned claim changing its instance type).
 */
export function exceededLimits(remaining: RemainingLimits, capacity: ResourceList, nodes = 1, released: ResourceList = {}): string[] {
  const exceeded: string[] = [];
  for (const name in remaining) {
    const adding = name === NodesLimit ? nodes : (capacity[name] ?? 0) - (released[name] ?? 0);
    if (adding > (remaining[name] as number)) exceeded.push(name);
  }
  return exceeded;
}

/**
 * The scheduler's per-candidate form of `exceededLimits` (no array, no `nodes`: a claim's node is counted when
 * it opens, `nodeFits`): whether `capacity` in place of `released` keeps within the remaining.
 */
export function resourcesFit(remaining: RemainingLimits, capacity: ResourceList, released: ResourceList): boolean {
  for (const name in remaining) {
    if (name === NodesLimit) continue;
    if ((capacity[name] ?? 0) - (released[name] ?? 0) > (remaining[name] as number)) return false;
  }
  return true;
}

/** Whether one more node keeps within `limits.nodes`. */
export function nodeFits(remaining: RemainingLimits): boolean {
  const left = remaining[NodesLimit];
  return left === undefined || left >= 1;
}
