/**
 * "What if these candidates were gone?" — the scheduling simulation (domain/scheduling `solve`) run on the
 * remaining nodes with the candidates' pods and the pending pods, as upstream's SimulateScheduling does. The
 * NodePools' limits count only the nodes that stay: the candidates and the nodes being deleted free theirs.
 * As upstream, a plan that puts a candidate's pod on a node not initialized yet is refused (its pods would wait
 * for a node that may never come up), except pods of nodes already being deleted and pending pods; and pending
 * pods that find no place do not block (they were pending before and stay so: upstream AllNonPendingPodsScheduled).
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
  /** Every pod that is not pending found a place it can move to now (an initialized node or a new NodeClaim). */
  allScheduled: boolean;
  /** Why the pods that block the plan do (pod key → reason). */
  blocked: Record<string, string>;
}

const keyOf = (p: PodLike): string => `${p.metadata?.namespace ?? 'default'}/${p.metadata?.name ?? ''}`;

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
  const waiting = { pending: new Set(input.pendingPods.map(keyOf)), deleting: new Set<string>() };
  const existingNodes: ExistingNode[] = [];
  const typeNamed = instanceTypeLookup(input);
  for (const n of input.nodes) {
    if (removed.has(n.name) || n.markedForDeletion) {
      const moving = n.pods.filter(isReschedulable).map(unbound);
      pods.push(...moving);
      if (!removed.has(n.name)) for (const p of moving) waiting.deleting.add(keyOf(p));
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
  const blocked = blockingPods(result, existingNodes, waiting);
  return { result, allScheduled: Object.keys(blocked).length === 0, blocked };
}

/** Pods the plan cannot count on: a candidate's pod sent to a node not initialized yet, or a pod not pending placed nowhere. */
function blockingPods(
  result: SchedulingResult,
  existingNodes: readonly ExistingNode[],
  waiting: { pending: ReadonlySet<string>; deleting: ReadonlySet<string> },
): Record<string, string> {
  const blocked: Record<string, string> = {};
  const notInitialized = new Set(existingNodes.filter((n) => n.inFlight).map((n) => n.name));
  for (const a of result.existingNodeAssignments) {
    if (!notInitialized.has(a.node)) continue;
    for (const pod of a.pods)
      if (!waiting.pending.has(pod) && !waiting.deleting.has(pod))
        blocked[pod] = `would schedule to ${a.node}, which is not initialized yet`;
  }
  for (const u of result.unschedulable) if (!waiting.pending.has(u.pod)) blocked[u.pod] = u.reason;
  return blocked;
}
