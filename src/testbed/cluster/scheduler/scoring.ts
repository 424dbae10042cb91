/** NodeResourcesFit's default LeastAllocated score (cpu and memory, equal weights), 0..100. */
import { type ResourceList } from '../../../domain/instancetypes/types.js';
import { ResourceCPU, ResourceMemory } from '../../../domain/quantity/index.js';
import { type NodeInfo } from './node-info.js';

export function leastAllocatedScore(info: NodeInfo, requests: ResourceList): number {
  let total = 0;
  for (const name of [ResourceCPU, ResourceMemory]) {
    const allocatable = info.allocatable[name] ?? 0;
    if (allocatable <= 0) continue;
    const requested = (info.requested[name] ?? 0) + (requests[name] ?? 0);
    total += requested > allocatable ? 0 : ((allocatable - requested) * 100) / allocatable;
  }
  return Math.floor(total / 2);
}

/** numFeasibleNodesToFind: all below 100 nodes, else an adaptive percentage (50 − n/125, at least 5%), at least 100. */
export function feasibleNodesToFind(totalNodes: number): number {
  if (totalNodes < 100) return totalNodes;
  const percentage = Math.max(5, 50 - Math.floor(totalNodes / 125));
  return Math.min(totalNodes, Math.max(100, Math.floor((totalNodes * percentage) / 100)));
}
