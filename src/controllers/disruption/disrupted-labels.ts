/**
 * Labels of `karpenter_nodeclaims_disrupted_total`, one set per disrupted NodeClaim, as upstream Karpenter
 * computes them: the reason, the NodeClaim's nodepool and capacity type, the NodePool's consolidation policy
 * (only when consolidation chose it; drift and expiration report none) and how its pods will be drained.
 */
import { LabelCapacityType, LabelNodePool } from '../../apis/v1/labels.js';
import type { NodeClaim, NodePool } from '../../apis/index.js';
import { parseDurationMs } from '../../domain/disruption/duration.js';

export type DisruptedLabels = Record<'reason' | 'nodepool' | 'capacity_type' | 'consolidation_policy' | 'termination_mode', string>;

/** Upstream's termination_mode: no grace period is graceful, a zero one forceful, any other eventual. */
export function terminationMode(nodeClaim: NodeClaim | undefined): 'graceful' | 'eventual' | 'forceful' {
  const grace = nodeClaim?.spec?.terminationGracePeriod;
  if (grace === undefined) return 'graceful';
  try {
    return parseDurationMs('spec.terminationGracePeriod', grace) <= 0 ? 'forceful' : 'eventual';
  } catch {
    return 'eventual';
  }
}

/** `WhenEmptyOrUnderutilized` → `when_empty_or_underutilized`, as upstream's pretty.ToSnakeCase. */
export function snakeCase(value: string): string {
  return value.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

export function disruptedLabels(
  reason: string,
  nodeClaim: NodeClaim | undefined,
  nodePool: NodePool | undefined,
  byConsolidation: boolean,
): DisruptedLabels {
  const labels = nodeClaim?.metadata?.labels ?? {};
  const policy = byConsolidation ? (nodePool?.spec?.disruption?.consolidationPolicy ?? 'WhenEmptyOrUnderutilized') : '';
  return {
    reason,
    nodepool: labels[LabelNodePool] ?? '',
    capacity_type: labels[LabelCapacityType] ?? '',
    consolidation_policy: snakeCase(policy),
    termination_mode: terminationMode(nodeClaim),
  };
}
