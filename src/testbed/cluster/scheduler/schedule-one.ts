/**
 * One scheduling cycle for one pod, as kube-scheduler's schedulePod: PreFilter (DynamicResources), in-tree
 * filters (first failing plugin gives the node's reasons), extender filters over the feasible nodes, then
 * LeastAllocated + extender scores.
 */
import { type V1Pod } from '@kubernetes/client-node';
import { podSchedulingRequests } from '../../../domain/pods/index.js';
import { type DraCycle } from './dra/dra-cycle.js';
import { type ExtenderClient } from './extender-client.js';
import { nodeAffinity, nodePorts, nodeResourcesFit, nodeUnschedulable, taintToleration } from './filters.js';
import { addReasons, fitErrorMessage, NoNodesAvailableMessage, type ReasonHistogram } from './fit-error.js';
import { type NodeInfo } from './node-info.js';
import { feasibleNodesToFind, leastAllocatedScore } from './scoring.js';
import { interPodAffinity, type PlacedPod, podTopologySpread } from './topology-filters.js';

export interface Snapshot {
  infos: Map<string, NodeInfo>;
  ordered: NodeInfo[];
  antiAffinityHolders: PlacedPod[];
  /** The DynamicResources plugin's view of claims, slices and classes for this cycle. */
  dra?: DraCycle;
}

export type ScheduleOutcome =
  { kind: 'scheduled'; nodeName: string } | { kind: 'unschedulable'; message: string } | { kind: 'error'; message: string };

export interface ScheduleCounters {
  extenderFilterCalls: number;
  extenderPrioritizeCalls: number;
  extenderErrors: number;
}

/** The filter plugins in kube-scheduler's default order; a node stops at the first one that rejects it. */
export function filterNode(pod: V1Pod, info: NodeInfo, snapshot: Snapshot, requests = podSchedulingRequests(pod)): string[] {
  const simple = [nodeUnschedulable, taintToleration, nodeAffinity, nodePorts];
  for (const plugin of simple) {
    const reasons = plugin(pod, info);
    if (reasons.length > 0) return reasons;
  }
  const fit = nodeResourcesFit(pod, info, requests);
  if (fit.length > 0) return fit;
  const spread = podTopologySpread(pod, info, snapshot.infos);
  if (spread.length > 0) return spread;
  const affinity = interPodAffinity(pod, info, snapshot.infos, snapshot.antiAffinityHolders);
  if (affinity.length > 0 || !snapshot.dra) return affinity;
  return snapshot.dra.filter(snapshot.dra.prepare(pod), info.node);
}

export async function schedulePod(
  pod: V1Pod,
  snapshot: Snapshot,
  extenders: readonly ExtenderClient[],
  startIndex: number,
  counters: ScheduleCounters,
): Promise<ScheduleOutcome> {
  const total = snapshot.ordered.length;
  if (total === 0) return { kind: 'unschedulable', message: NoNodesAvailableMessage };
  const gate = snapshot.dra?.prepare(pod).gate;
  if (gate) return { kind: 'unschedulable', message: fitErrorMessage(total, new Map([[gate.message, total]])) };
  const requests = podSchedulingRequests(pod);
  const histogram: ReasonHistogram = new Map();
  let feasible: NodeInfo[] = [];
  const wanted = feasibleNodesToFind(total);
  for (let i = 0; i < total && feasible.length < wanted; i++) {
    const info = snapshot.ordered[(startIndex + i) % total] as NodeInfo;
    const reasons = filterNode(pod, info, snapshot, requests);
    if (reasons.length === 0) feasible.push(info);
    else addReasons(histogram, reasons);
  }
  for (const extender of extenders) {
    if (feasible.length === 0) break;
    if (!extender.isInterested(pod) || !extender.config.filterVerb) continue;
    counters.extenderFilterCalls++;
    try {
      const result = await extender.filter(
        pod,
        feasible.map((f) => f.node),
      );
      const kept = new Set(result.feasible);
      for (const info of feasible) {
        if (kept.has(info.name)) continue;
        addReasons(histogram, [result.unresolvable[info.name] ?? result.failed[info.name] ?? 'node(s) were filtered out by an extender']);
      }
      feasible = feasible.filter((f) => kept.has(f.name));
    } catch (error) {
      counters.extenderErrors++;
      if (extender.config.ignorable) continue;
      return { kind: 'error', message: (error as Error).message };
    }
  }
  if (feasible.length === 0) return { kind: 'unschedulable', message: fitErrorMessage(total, histogram) };
  if (feasible.length === 1) return { kind: 'scheduled', nodeName: (feasible[0] as NodeInfo).name };
  return { kind: 'scheduled', nodeName: await bestNode(pod, feasible, requests, extenders, counters) };
}

async function bestNode(
  pod: V1Pod,
  feasible: NodeInfo[],
  requests: ReturnType<typeof podSchedulingRequests>,
  extenders: readonly ExtenderClient[],
  counters: ScheduleCounters,
): Promise<string> {
  const scores = new Map(feasible.map((f) => [f.name, leastAllocatedScore(f, requests)]));
  const nodes = feasible.map((f) => f.node);
  const extenderScores = await Promise.all(
    extenders
      .filter((e) => e.config.prioritizeVerb && e.isInterested(pod))
      .map((e) => {
        counters.extenderPrioritizeCalls++;
        // Prioritize errors are ignored, as upstream (logged at V5 there).
        return e.prioritize(pod, nodes).catch(() => new Map<string, number>());
      }),
  );
  for (const perHost of extenderScores)
    for (const [host, score] of perHost) if (scores.has(host)) scores.set(host, (scores.get(host) ?? 0) + score);
  let best = feasible[0] as NodeInfo;
  for (const info of feasible) if ((scores.get(info.name) ?? 0) > (scores.get(best.name) ?? 0)) best = info;
  return best.name;
}
