/**
 * "What if these candidates were gone?" — the scheduling simulation (domain/scheduling `solve`) run on the
 * remaining nodes with the candidates' pods and the pending pods, as upstream's SimulateScheduling does.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { LabelHostname } from '../../apis/index.js';
import { parseResourceList } from '../quantity/index.js';
import type { Taint } from '../requirements/index.js';
import { solve } from '../scheduling/scheduler.js';
import type { ExistingNode, PodLike, SchedulingResult } from '../scheduling/types.js';
import { isReschedulable } from './pod-facts.js';
import type { Candidate, DisruptionInput, DisruptionNode } from './types.js';

export interface Simulation {
  result: SchedulingResult;
  /** Every pod found a place (existing node or new NodeClaim). */
  allScheduled: boolean;
}

/** A pod as if it were pending again (unbound), so the simulation places it anew. */
function unbound(pod: V1Pod): PodLike {
  return { metadata: pod.metadata, spec: pod.spec === undefined ? undefined : { ...pod.spec, nodeName: undefined } };
}

function existingNode(n: DisruptionNode): ExistingNode | undefined {
  if (n.node) {
    return {
      name: n.name,
      labels: { [LabelHostname]: n.name, ...(n.node.metadata?.labels ?? {}) },
      taints: (n.node.spec?.taints ?? []) as Taint[],
      allocatable: parseResourceList(n.node.status?.allocatable ?? n.node.status?.capacity),
      pods: n.pods,
      nodePool: n.nodePool,
      pricePerHour: n.pricePerHour,
    };
  }
  // An in-flight NodeClaim (e.g. a replacement being launched) counts once its type and zone are known.
  const status = n.nodeClaim?.status;
  if (!status?.allocatable) return undefined;
  return {
    name: n.name,
    labels: { ...(n.nodeClaim?.metadata?.labels ?? {}) },
    taints: (n.nodeClaim?.spec?.taints ?? []) as Taint[],
    allocatable: parseResourceList(status.allocatable as Record<string, string>),
    pods: [],
    inFlight: true,
    nodePool: n.nodePool,
    pricePerHour: n.pricePerHour,
  };
}

export function simulateWithout(candidates: readonly Candidate[], input: DisruptionInput): Simulation {
  const removed = new Set(candidates.map((c) => c.name));
  const pods: PodLike[] = [...input.pendingPods];
  const existingNodes: ExistingNode[] = [];
  for (const n of input.nodes) {
    if (removed.has(n.name) || n.markedForDeletion) {
      pods.push(...n.pods.filter(isReschedulable).map(unbound));
      continue;
    }
    const e = existingNode(n);
    if (e) existingNodes.push(e);
  }
  const result = solve({ pods, existingNodes, nodePools: input.schedulingNodePools, daemonSets: input.daemonSets ?? [], options: { effort: 'quick' } });
  return { result, allScheduled: result.unschedulable.length === 0 };
}
