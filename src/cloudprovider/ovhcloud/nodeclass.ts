/**
 * What the OVHNodeClass means for a node pool (pure): the pool settings a NodeClaim launches with (the
 * immutable monthlyBilled / antiAffinity, template labels and taints) and the drift check. MKS fixes
 * monthlyBilled and antiAffinity at pool creation, so a NodeClass change of either drifts every node of
 * the older pools; a change of `tags` drifts nodes whose pool template lacks them.
 */
import type { OVHNodeClass, OVHNodeClassSpec } from '../../apis/v1alpha1/ovh-nodeclass.js';
import { CapacityTypeOnDemand, LabelCapacityType, LabelInstanceType, LabelNodePool, LabelTopologyZone } from '../../apis/v1/labels.js';
import { createHash } from 'node:crypto';
import type { CloudProviderNodeClaim, DriftReason } from '../types.js';
import type { OvhNodePool, OvhTaint } from './api.js';
import type { PoolSettings } from './pool-naming.js';

/** Label recording the NodeClass fingerprint a pool was created from. */
export const LabelNodeClassHash = 'karpenter-eu.io/ovhnodeclass-hash';

/** A short hash of the NodeClass fields that shape a pool (the drift fingerprint). */
export function nodeClassHash(spec: OVHNodeClassSpec): string {
  const fingerprint = JSON.stringify({
    m: spec.monthlyBilled ?? false,
    a: spec.antiAffinity ?? false,
    t: Object.entries(spec.tags ?? {}).sort(),
  });
  return createHash('sha256').update(fingerprint).digest('hex').slice(0, 16);
}

function taintsOf(nodeClaim: CloudProviderNodeClaim): OvhTaint[] {
  const all = [...(nodeClaim.spec.taints ?? []), ...(nodeClaim.spec.startupTaints ?? [])];
  return all.map((t) => ({ key: t.key, value: t.value ?? '', effect: t.effect }));
}

/** The pool a NodeClaim of cluster `clusterName` launches into for this flavor and zone. */
export function poolSettingsFor(
  nodeClaim: CloudProviderNodeClaim,
  nodeClass: OVHNodeClass,
  flavor: string,
  zone: string,
  clusterName: string,
): PoolSettings {
  const spec = nodeClass.spec;
  const nodePool = nodeClaim.metadata?.labels?.[LabelNodePool] ?? '';
  return {
    flavor,
    zone,
    monthlyBilled: spec.monthlyBilled ?? false,
    antiAffinity: spec.antiAffinity ?? false,
    labels: {
      ...(spec.tags ?? {}),
      [LabelInstanceType]: flavor,
      [LabelTopologyZone]: zone,
      [LabelCapacityType]: CapacityTypeOnDemand,
      ...(nodePool ? { [LabelNodePool]: nodePool } : {}),
      [LabelNodeClassHash]: nodeClassHash(spec),
    },
    taints: taintsOf(nodeClaim),
    clusterName,
  };
}

/** Why the node's pool no longer matches the NodeClass, checked in this order; undefined when it does. */
export function driftReason(pool: OvhNodePool, spec: OVHNodeClassSpec): DriftReason | undefined {
  if (pool.monthlyBilled !== (spec.monthlyBilled ?? false)) return 'MonthlyBilledDrifted';
  if (pool.antiAffinity !== (spec.antiAffinity ?? false)) return 'AntiAffinityDrifted';
  const labels = pool.template.metadata.labels;
  const missingTag = Object.entries(spec.tags ?? {}).some(([k, v]) => labels[k] !== v);
  if (missingTag) return 'TagsDrifted';
  return undefined;
}
