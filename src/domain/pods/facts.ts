/**
 * What every decision reads about a pod, read one way (upstream Karpenter `pkg/utils/pod`): who owns it,
 * whether it is finished or going away, and the key pods are batched and matched by.
 */
import type { V1Pod } from '@kubernetes/client-node';

export type PodLike = Pick<V1Pod, 'metadata' | 'spec' | 'status'>;

/** The annotation kubelet puts on the API object mirroring a static pod. */
export const AnnotationConfigMirror = 'kubernetes.io/config.mirror';

/** `namespace/name`; an empty or missing namespace is `default`, as the API server defaults it. */
export function podKey(pod: Pick<V1Pod, 'metadata'>): string {
  return `${pod.metadata?.namespace || 'default'}/${pod.metadata?.name ?? ''}`;
}

/** An owner reference of exactly this apiVersion and kind, controller or not (upstream IsOwnedBy). */
export function isOwnedBy(pod: PodLike, apiVersion: string, kind: string): boolean {
  return (pod.metadata?.ownerReferences ?? []).some((o) => o.apiVersion === apiVersion && o.kind === kind);
}

/** Owned by an apps/v1 DaemonSet: pinned to its node, never needing a node of its own. */
export function isDaemonSetPod(pod: PodLike): boolean {
  return isOwnedBy(pod, 'apps/v1', 'DaemonSet');
}

/**
 * The API object of a static pod: kubelet owns it through its Node and marks it with the mirror
 * annotation. Either sign is enough; the API cannot evict or move it, kubelet recreates it.
 */
export function isMirrorPod(pod: PodLike): boolean {
  return isOwnedBy(pod, 'v1', 'Node') || pod.metadata?.annotations?.[AnnotationConfigMirror] !== undefined;
}

/** Succeeded or Failed: its containers will not run again. */
export function isTerminal(pod: PodLike): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** Deletion requested (a deletionTimestamp is set); a null one, as some encoders write, is not set. */
export function isTerminating(pod: PodLike): boolean {
  return pod.metadata?.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null;
}

/** Pods that need a new home when their node goes: running, not going away, not tied to the node. */
export function isReschedulable(pod: PodLike): boolean {
  return !isTerminal(pod) && !isTerminating(pod) && !isDaemonSetPod(pod) && !isMirrorPod(pod);
}
