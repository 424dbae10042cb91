/**
 * Pods Karpenter leaves to other capacity (upstream's provisioner Validate, `validateKarpenterManagedLabelCanExist`):
 * a pod that requires the `karpenter.sh/nodepool` label not to exist asks for a node Karpenter did not launch, so no
 * NodePool is tried for it and it gets no FailedScheduling event from us. Pure: reads the pod only.
 */
import { LabelNodePool } from '../../apis/v1/labels.js';
import type { PodLike } from '../pods/facts.js';

export type IgnoredPodReason = 'karpenter-managed-label-does-not-exist';

/** Why provisioning ignores `pod`, or undefined when it considers it. */
export function ignoredPodReason(pod: PodLike): IgnoredPodReason | undefined {
  // Upstream reads the pod's requirements from its first required node selector term, as the scheduler tries it first.
  const term = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0];
  const excluded = (term?.matchExpressions ?? []).some((e) => e.key === LabelNodePool && e.operator === 'DoesNotExist');
  return excluded ? 'karpenter-managed-label-does-not-exist' : undefined;
}
