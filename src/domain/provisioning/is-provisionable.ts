/**
 * Which pods Karpenter provisions for (upstream `pkg/utils/pod/scheduling.go` IsProvisionable): pods the
 * scheduler tried and could not place, that no node will run anyway, and that are not going away.
 * Pure: reads the pod only.
 */
import { isDaemonSetPod, isMirrorPod, isTerminal, isTerminating, type PodLike } from '../pods/facts.js';

export type PodForProvisioning = PodLike;

/** Why a pod is not provisionable; undefined when it is. */
export type NotProvisionableReason =
  | 'scheduled'
  | 'not-marked-unschedulable'
  | 'preempting'
  | 'daemonset-pod'
  | 'static-pod'
  | 'terminating'
  | 'terminal'
  | 'scheduling-gated';

/** kube-scheduler sets PodScheduled=False with this reason when no node fits. */
export const PodReasonUnschedulable = 'Unschedulable';

export function isMarkedUnschedulable(pod: PodForProvisioning): boolean {
  return (pod.status?.conditions ?? []).some(
    (c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === PodReasonUnschedulable,
  );
}

/** The reason `pod` needs no new capacity, or undefined when Karpenter should provision for it. */
export function notProvisionableReason(pod: PodForProvisioning): NotProvisionableReason | undefined {
  if (pod.spec?.nodeName) return 'scheduled';
  if ((pod.spec?.schedulingGates ?? []).length > 0) return 'scheduling-gated';
  if (isTerminating(pod)) return 'terminating';
  if (isTerminal(pod)) return 'terminal';
  if (pod.status?.nominatedNodeName) return 'preempting';
  if (isDaemonSetPod(pod)) return 'daemonset-pod';
  if (isMirrorPod(pod)) return 'static-pod';
  if (!isMarkedUnschedulable(pod)) return 'not-marked-unschedulable';
  return undefined;
}

export function isProvisionable(pod: PodForProvisioning): boolean {
  return notProvisionableReason(pod) === undefined;
}
