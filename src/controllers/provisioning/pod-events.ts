/** The Events the provisioner writes on pods (kubectl describe pod shows why a pod waits and for what). */
import type { V1Pod } from '@kubernetes/client-node';
import type { EventRecorder } from '../../kube/events.js';

function involved(pod: V1Pod) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    name: pod.metadata?.name ?? '',
    namespace: pod.metadata?.namespace ?? 'default',
    ...(pod.metadata?.uid ? { uid: pod.metadata.uid } : {}),
  };
}

/** Karpenter's `Nominated`: `Pod should schedule on: nodeclaim/<name>` or `node/<name>`. */
export function publishNominated(events: EventRecorder | undefined, pod: V1Pod, target: string): Promise<void> {
  if (!events) return Promise.resolve();
  return events.publish({
    involvedObject: involved(pod),
    type: 'Normal',
    reason: 'Nominated',
    message: `Pod should schedule on: ${target}`,
  });
}

/** Karpenter's `FailedScheduling`: the simulation's reason, as the pod cannot get a node. */
export function publishFailedScheduling(events: EventRecorder | undefined, pod: V1Pod, reason: string): Promise<void> {
  if (!events) return Promise.resolve();
  return events.publish({
    involvedObject: involved(pod),
    type: 'Warning',
    reason: 'FailedScheduling',
    message: `Failed to schedule pod, ${reason}`,
  });
}
