/**
 * "What if these candidates were gone?" — the scheduling simulation (domain/scheduling `solve`) run on the
 * remaining nodes with the candidates' pods and the pending pods, as upstream's SimulateScheduling does. The
 * NodePools' limits count only the nodes that stay: the candidates and the nodes being deleted free theirs.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { InstanceType } from '../instancetypes/types.js';
import { existingCapacity, type InstanceTypeLookup } from '../provisioning/existing-capacity.js';
import { solve } from '../scheduling/scheduler.js';
import type { ExistingNode, PodLike, SchedulingNodePool, SchedulingResult } from '../scheduling/types.js';
import { usageAsResourceList, usageByNodePool, usageCapacity } from '../nodepool/limits.js';
import { subtractResources } from '../quantity/index.js';
import { isReschedulable } from '../pods/facts.js';
import type { Candidate, DisruptionInput } from './types.js';

/** The NodePools' instance types by name: what an in-flight NodeClaim may become. */
function instanceTypeLookup(input: DisruptionInput): InstanceTypeLookup {
  const types = new Map<string, InstanceType>();
  for (const pool of input.schedulingNodePools) for (const t of pool.instanceTypes) types.set(t.name, t);
  return (name) => types.get(name);
}

export interface Simulation {
  result: SchedulingResult;
  /** Every pod found a place (existing node or new NodeClaim). */
  allScheduled: boolean;
}

/** A pod as if it were pending again (unbound), so the simulation places it anew. */
function unbound(pod: V1Pod): PodLike {
  return { metadata: pod.metadata, spec: pod.spec === undefined ? undefined : { ...pod.spec, nodeName: undefined } };
}

/** The NodePools with the usage of the removed and deleting nodes taken off (their capacity and their count). */
function withoutUsageOf(input: DisruptionInput, removed: ReadonlySet<string>): SchedulingNodePool[] {
  const leaving = input.nodes.filter((n) => n.nodeClaim && (removed.has(n.name) || n.markedForDeletion));
  const freed = usageByNodePool(
    leaving.map((n) => ({ nodePool: n.nodePool, capacity: usageCapacity(n.node?.status?.capacity, n.nodeClaim?.status?.capacity) })),
  );
  return input.schedulingNodePools.map((pool) => {
    const gone = freed[pool.name];
    return gone && pool.usage ? { ...pool, usage: subtractResources(pool.usage, usageAsResourceList(gone)) } : pool;
  });
}

export function simulateWithout(candidates: readonly Candidate[], input: DisruptionInput): Simulation {
  const removed = new Set(candidates.map((c) => c.name));
  const pods: PodLike[] = [...input.pendingPods];
  const existingNodes: ExistingNode[] = [];
  const typeNamed = instanceTypeLookup(input);
  for (const n of input.nodes) {
    if (removed.has(n.name) || n.markedForDeletion) {
      pods.push(...n.pods.filter(isReschedulable).map(unbound));
      continue;
    }
    // In-flight NodeClaims (replacements being launched) count as the provisioner counts them.
    const e = existingCapacity(n, typeNamed);
    if (e) existingNodes.push(e);
  }
  const result = solve({
    pods,
    existingNodes,
    nodePools: withoutUsageOf(input, removed),
    daemonSets: input.daemonSets ?? [],
    options: { effort: 'quick' },
  });
  return { result, allScheduled: result.unschedulable.length === 0 };
}
