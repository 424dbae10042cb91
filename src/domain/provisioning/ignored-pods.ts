/**
 * Pods Karpenter leaves to other capacity (upstream's provisioner Validate, `validateKarpenterManagedLabelCanExist`):
 * a pod that requires the `karpenter.sh/nodepool` label not to exist asks for a node Karpenter did not launch, so no
 * NodePool is tried for it and it gets no FailedScheduling event from us. A pod with DRA resource claims is left
 * alone too unless DRA is on (upstream does not provision for them: its devices are not known). Pure.
 */
import { LabelNodePool } from '../../apis/v1/labels.js';
import type { PodLike } from '../pods/facts.js';

export type IgnoredPodReason = 'karpenter-managed-label-does-not-exist' | 'dynamic-resource-allocation-off';

/** Why provisioning ignores `pod`, or undefined when it considers it. `dra`: DRA-aware provisioning is on. */
export function ignoredPodReason(pod: PodLike, dra = false): IgnoredPodReason | undefined {
  if (!dra && (pod.spec?.resourceClaims?.length ?? 0) > 0) return 'dynamic-resource-allocation-off';
  // Upstream reads the pod's requirements from its first required node selector term, as the scheduler tries it first.
  const term = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0];
  const excluded = (term?.matchExpressions ?? []).some((e) => e.key === LabelNodePool && e.operator === 'DoesNotExist');
  return excluded ? 'karpenter-managed-label-does-not-exist' : undefined;
}
