/**
 * Which nodes may be disrupted (upstream NewCandidate + ValidateNodeDisruptable/ValidatePodsDisruptable), and
 * which of them are consolidatable (`consolidateAfter` elapsed since the last pod event).
 */
import type { NodePool } from '../../apis/index.js';
import { AnnotationDoNotDisrupt, LabelInstanceType, LabelTopologyZone, NodeClaimConditionTypes } from '../../apis/index.js';
import { parseNillableDurationMs } from './duration.js';
import { isReschedulable } from '../pods/facts.js';
import { blockingPdb, evictionCost, hasActiveDoNotDisrupt } from './pod-facts.js';
import type { Candidate, DisruptionInput, DisruptionNode } from './types.js';

export interface Ineligible {
  node: string;
  reason: string;
}

export interface CandidateSet {
  candidates: Candidate[];
  ineligible: Ineligible[];
}

function conditionTime(node: DisruptionNode, type: string): number | undefined {
  const c = node.nodeClaim?.status?.conditions?.find((x) => x.type === type && x.status === 'True');
  const t = c?.lastTransitionTime === undefined ? NaN : Date.parse(String(c.lastTransitionTime));
  return Number.isNaN(t) ? undefined : t;
}

export function creationTime(node: DisruptionNode): number {
  const t = Date.parse(String(node.nodeClaim?.metadata?.creationTimestamp ?? ''));
  return Number.isNaN(t) ? 0 : t;
}

/** When the NodeClaim became Initialized (its condition), else when it was created. */
export function initializedAt(node: DisruptionNode): number {
  return conditionTime(node, NodeClaimConditionTypes.Initialized) ?? creationTime(node);
}

function expireAfterMs(nodePool: NodePool): number | undefined {
  try {
    return parseNillableDurationMs('expireAfter', nodePool.spec.template.spec.expireAfter ?? '720h');
  } catch {
    return undefined;
  }
}

/** Upstream DisruptionCost: Σ eviction cost × the fraction of the node's lifetime still ahead. */
export function disruptionCost(node: DisruptionNode, nodePool: NodePool, now: number): number {
  const expire = expireAfterMs(nodePool);
  const remaining = expire === undefined || expire <= 0 ? 1 : Math.min(1, Math.max(0, (creationTime(node) + expire - now) / expire));
  return node.pods.filter(isReschedulable).reduce((sum, p) => sum + evictionCost(p), 0) * remaining;
}

function whyNotDisruptable(node: DisruptionNode, input: DisruptionInput, nodePool: NodePool | undefined): string | undefined {
  if (!node.nodeClaim || !node.node) return 'not managed, or not registered yet';
  if (!node.initialized) return 'not initialized';
  if (node.markedForDeletion) return 'already being disrupted or deleted';
  if (node.nominated) return 'nominated for pending pods';
  if (
    node.node.metadata?.annotations?.[AnnotationDoNotDisrupt] === 'true' ||
    node.nodeClaim.metadata?.annotations?.[AnnotationDoNotDisrupt] === 'true'
  ) {
    return `annotated ${AnnotationDoNotDisrupt}`;
  }
  if (!nodePool) return `NodePool ${JSON.stringify(node.nodePool ?? '')} not found`;
  if (node.pricePerHour === undefined) return 'price of its instance type unknown';
  return podBlockingDisruption(node, input);
}

/** The first pod that keeps the node: a do-not-disrupt annotation in force, or a PodDisruptionBudget. */
function podBlockingDisruption(node: DisruptionNode, input: DisruptionInput): string | undefined {
  for (const pod of node.pods) {
    const name = `${pod.metadata?.namespace}/${pod.metadata?.name}`;
    if (hasActiveDoNotDisrupt(pod, input.now)) return `pod ${name} is annotated ${AnnotationDoNotDisrupt}`;
    if (!isReschedulable(pod)) continue;
    const pdb = blockingPdb(pod, input.podDisruptionBudgets ?? []);
    if (pdb) return `pod ${name} is protected by PodDisruptionBudget ${pdb.metadata?.namespace}/${pdb.metadata?.name}`;
  }
  return undefined;
}

export function findCandidates(input: DisruptionInput): CandidateSet {
  const pools = new Map(input.nodePools.map((p) => [p.metadata?.name ?? '', p]));
  const out: CandidateSet = { candidates: [], ineligible: [] };
  for (const node of input.nodes) {
    const nodePool = node.nodePool === undefined ? undefined : pools.get(node.nodePool);
    const why = whyNotDisruptable(node, input, nodePool);
    if (why !== undefined || !nodePool || !node.nodeClaim || !node.node) {
      if (node.nodeClaim) out.ineligible.push({ node: node.name, reason: why ?? 'not disruptable' });
      continue;
    }
    const labels = node.node.metadata?.labels ?? {};
    out.candidates.push({
      name: node.name,
      nodeClaimName: node.nodeClaim.metadata?.name ?? '',
      nodePool: node.nodePool as string,
      instanceType: labels[LabelInstanceType] ?? '',
      zone: labels[LabelTopologyZone] ?? '',
      pricePerHour: node.pricePerHour as number,
      reschedulablePods: node.pods.filter(isReschedulable),
      disruptionCost: disruptionCost(node, nodePool, input.now),
      node,
    });
  }
  return out;
}

/** Whether the NodePool lets consolidation take nodes that still run pods (WhenEmptyOrUnderutilized, the default). */
export function allowsUnderutilizedConsolidation(nodePool: NodePool): boolean {
  return (nodePool.spec.disruption?.consolidationPolicy ?? 'WhenEmptyOrUnderutilized') !== 'WhenEmpty';
}

/** consolidateAfter elapsed since the last pod event (or since initialization); `Never` disables it. */
export function isConsolidatable(candidate: Candidate, nodePool: NodePool, now: number): boolean {
  return consolidateAfterElapsed(candidate.node, nodePool, now);
}

/** The same test on any initialized node (upstream's Consolidatable condition), candidate or not. */
export function consolidateAfterElapsed(node: DisruptionNode, nodePool: NodePool, now: number): boolean {
  let after: number | undefined;
  try {
    after = parseNillableDurationMs('consolidateAfter', nodePool.spec.disruption?.consolidateAfter ?? '0s');
  } catch {
    return false;
  }
  if (after === undefined) return false;
  const since = Math.max(node.lastPodEventAt ?? 0, initializedAt(node));
  return now >= since + after;
}

export function isEmpty(candidate: Candidate): boolean {
  return candidate.reschedulablePods.length === 0;
}
