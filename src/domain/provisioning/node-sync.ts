/**
 * What registration and initialization do to a Node (Karpenter's lifecycle `registration.go` and
 * `initialization.go`): which labels, annotations, taints and finalizer the Node must carry once its
 * NodeClaim claims it, and what still keeps it from being initialized. Pure.
 */
import type { V1Node, V1Taint } from '@kubernetes/client-node';
import {
  FinalizerTermination,
  LabelDoNotSyncTaints,
  LabelNodeInitialized,
  LabelNodeRegistered,
  TaintUnregistered,
} from '../../apis/v1/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { parseResourceList } from '../quantity/index.js';

/** Taints the kubelet, the cloud controller or we ourselves put on a node while it starts. */
export const EphemeralTaintKeys: readonly string[] = [
  'node.kubernetes.io/not-ready',
  'node.kubernetes.io/unreachable',
  'node.cloudprovider.kubernetes.io/uninitialized',
  TaintUnregistered.key,
];

/** Requests every node has; only other (extended) resources must show up before the node is initialized. */
const standardResources = new Set(['cpu', 'memory', 'ephemeral-storage', 'pods']);

export interface NodeRegistrationPatch {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  taints: V1Taint[];
  finalizers: string[];
  /** False when the Node already matches: nothing to write. */
  changed: boolean;
}

function sameTaint(a: Pick<V1Taint, 'key' | 'effect'>, b: Pick<V1Taint, 'key' | 'effect'>): boolean {
  return a.key === b.key && a.effect === b.effect;
}

function mergeTaints(current: readonly V1Taint[], add: readonly V1Taint[]): V1Taint[] {
  const out = [...current];
  for (const t of add)
    if (!out.some((c) => sameTaint(c, t))) out.push({ key: t.key, effect: t.effect, ...(t.value !== undefined ? { value: t.value } : {}) });
  return out;
}

/**
 * The Node as registration wants it: the NodeClaim's labels and annotations plus `karpenter.sh/registered`,
 * the termination finalizer, the `karpenter.sh/unregistered` taint gone, and — on first registration only,
 * unless the node opts out — the NodeClaim's taints and startup taints (later edits to the Node win).
 */
export function registrationPatch(node: V1Node, claim: NodeClaim): NodeRegistrationPatch {
  const currentLabels = node.metadata?.labels ?? {};
  const currentAnnotations = node.metadata?.annotations ?? {};
  const currentTaints = node.spec?.taints ?? [];
  const currentFinalizers = node.metadata?.finalizers ?? [];
  const labels = { ...currentLabels, ...(claim.metadata?.labels ?? {}), [LabelNodeRegistered]: 'true' };
  const annotations = { ...currentAnnotations, ...(claim.metadata?.annotations ?? {}) };
  const taints = registeredTaints(currentTaints, currentLabels, claim);
  const finalizers = currentFinalizers.includes(FinalizerTermination)
    ? [...currentFinalizers]
    : [...currentFinalizers, FinalizerTermination];
  const changed =
    !shallowEqual(labels, currentLabels) ||
    !shallowEqual(annotations, currentAnnotations) ||
    taints.length !== currentTaints.length ||
    finalizers.length !== currentFinalizers.length;
  return { labels, annotations, taints, finalizers, changed };
}

/** Without the unregistered taint; with the claim's taints and startup taints on first registration only. */
function registeredTaints(current: readonly V1Taint[], labels: Readonly<Record<string, string>>, claim: NodeClaim): V1Taint[] {
  const taints = current.filter((t) => !sameTaint(t, TaintUnregistered));
  const firstRegistration = labels[LabelNodeRegistered] !== 'true';
  if (!firstRegistration || labels[LabelDoNotSyncTaints] === 'true') return taints;
  return mergeTaints(taints, [...((claim.spec.taints ?? []) as V1Taint[]), ...((claim.spec.startupTaints ?? []) as V1Taint[])]);
}

function shallowEqual(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

export function isNodeReady(node: V1Node): boolean {
  return (node.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** Why the Node is not initialized yet; empty when it is ready for pods. */
export function initializationBlockers(node: V1Node, claim: NodeClaim): string[] {
  const blockers: string[] = [];
  if (!isNodeReady(node)) blockers.push('node is not ready');
  const taints = node.spec?.taints ?? [];
  for (const startup of claim.spec.startupTaints ?? []) {
    if (taints.some((t) => sameTaint(t, startup))) blockers.push(`startup taint ${startup.key}:${startup.effect} is still present`);
  }
  for (const t of taints) if (EphemeralTaintKeys.includes(t.key)) blockers.push(`taint ${t.key}:${t.effect} is still present`);
  const allocatable = safeResources(node.status?.allocatable);
  for (const name of Object.keys(claim.spec.resources?.requests ?? {})) {
    if (!standardResources.has(name) && !((allocatable[name] ?? 0) > 0)) blockers.push(`extended resource ${name} is not registered`);
  }
  return blockers;
}

function safeResources(list: Record<string, string> | undefined): Readonly<Record<string, number>> {
  try {
    return parseResourceList(list);
  } catch {
    return {};
  }
}

export function isInitializedLabelled(node: V1Node): boolean {
  return node.metadata?.labels?.[LabelNodeInitialized] === 'true';
}
