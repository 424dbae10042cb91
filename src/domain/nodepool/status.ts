/**
 * A NodePool's status as upstream's nodepool counter and readiness controllers keep it: `resources` and `nodes`
 * summed over its managed nodes (what `kubectl get nodepools` shows), and the conditions `NodeClassReady` (the
 * referenced NodeClass exists, is not being deleted, and its own Ready condition, when it has one, is True) and
 * `Ready`. Upstream's Ready also needs `ValidationSucceeded`: here the admission webhook refuses an invalid
 * NodePool at apply time, so that condition is not written. A condition keeps its lastTransitionTime while its
 * status does not change.
 */
import { NodePoolConditionTypes, type NodePool, type NodePoolStatus } from '../../apis/v1/nodepool.js';
import type { Condition } from '../../apis/v1/common.js';
import type { ResourceList } from '../instancetypes/types.js';
import { formatResourceList } from '../quantity/index.js';
import { staticNodePoolRefusal } from './static.js';

export interface NodeClassFacts {
  found: boolean;
  deleting?: boolean;
  /** The NodeClass's own Ready condition, when it writes one. */
  ready?: { status: string; message?: string };
}

export interface NodePoolStatusInput {
  nodePool: NodePool;
  nodeClass: NodeClassFacts;
  usage?: { resources: ResourceList; nodes: number };
  now: number;
}

interface Verdict {
  ok: boolean;
  reason: string;
  message: string;
}
/** What a condition is compared with and stamped by: the conditions written before, the time, the generation. */
interface ConditionHistory {
  previous: readonly Condition[];
  now: number;
  generation: number | undefined;
}

function condition(type: string, { ok, reason, message }: Verdict, { previous, now, generation }: ConditionHistory): Condition {
  const status = ok ? 'True' : 'False';
  const before = previous.find((c) => c.type === type);
  const lastTransitionTime = before?.status === status ? before.lastTransitionTime : new Date(now).toISOString();
  return { type, status, reason, message, lastTransitionTime, ...(generation !== undefined ? { observedGeneration: generation } : {}) };
}

function nodeClassVerdict(nodePool: NodePool, facts: NodeClassFacts): Verdict {
  const ref = nodePool.spec.template.spec.nodeClassRef;
  const what = `${ref.kind} ${JSON.stringify(ref.name)}`;
  if (!facts.found)
    return { ok: false, reason: 'NodeClassNotFound', message: `${what} does not exist; create it or fix spec.template.spec.nodeClassRef` };
  if (facts.deleting) return { ok: false, reason: 'NodeClassTerminating', message: `${what} is being deleted` };
  if (facts.ready && facts.ready.status !== 'True')
    return {
      ok: false,
      reason: 'NodeClassNotReady',
      message: `${what} is not ready${facts.ready.message ? `: ${facts.ready.message}` : ''}`,
    };
  return { ok: true, reason: 'NodeClassReady', message: '' };
}

/** Ready needs the NodeClass ready and a NodePool this controller can serve (not a static one). */
function readyVerdict(nodePool: NodePool, nodeClass: Verdict): Verdict {
  if (nodePool.spec.replicas !== undefined)
    return { ok: false, reason: 'StaticNodePoolNotSupported', message: `spec.replicas: ${staticNodePoolRefusal(nodePool.spec.replicas)}` };
  return { ...nodeClass, reason: nodeClass.ok ? 'Ready' : nodeClass.reason };
}

export function desiredNodePoolStatus(input: NodePoolStatusInput): NodePoolStatus {
  const { nodePool, now } = input;
  const previous = (nodePool.status?.conditions ?? []) as Condition[];
  const history = { previous, now, generation: nodePool.metadata?.generation };
  const verdict = nodeClassVerdict(nodePool, input.nodeClass);
  const resources = formatResourceList(input.usage?.resources ?? {});
  const nodes = input.usage?.nodes ?? 0;
  return {
    resources: { ...resources, nodes: String(nodes) },
    nodes,
    conditions: [
      condition(NodePoolConditionTypes.NodeClassReady, verdict, history),
      condition(NodePoolConditionTypes.Ready, readyVerdict(nodePool, verdict), history),
    ],
  };
}

/** Whether provisioning may use the NodePool: not while its Ready condition is False (no status yet is fine). */
export function nodePoolReady(nodePool: Pick<NodePool, 'status'>): boolean {
  return (nodePool.status?.conditions ?? []).find((c) => c.type === NodePoolConditionTypes.Ready)?.status !== 'False';
}

/** Why provisioning skips it, or undefined. */
export function nodePoolNotReadyMessage(nodePool: Pick<NodePool, 'status'>): string | undefined {
  const ready = (nodePool.status?.conditions ?? []).find((c) => c.type === NodePoolConditionTypes.Ready);
  return ready?.status === 'False' ? ready.message || ready.reason : undefined;
}

/** JSON with object keys sorted: the API server may hand fields back in another order than we wrote them. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Whether writing `desired` would change what the NodePool's status holds. */
export function statusDiffers(current: NodePoolStatus | undefined, desired: NodePoolStatus): boolean {
  const { nodeClassObservedGeneration: _kept, ...comparable } = current ?? {};
  return canonical(comparable) !== canonical(desired);
}
