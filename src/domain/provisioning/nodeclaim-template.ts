/**
 * A scheduling decision → the NodeClaim to create (Karpenter's `NodeClaimTemplate.ToNodeClaim`):
 * `generateName: <nodepool>-`, an owner reference to the NodePool, the template's labels and annotations plus
 * `karpenter.sh/nodepool`, the template hash drift compares against, the NodeClass label and single-valued requirement labels, requirements narrowed to
 * the decision (instance types, zone, capacity type), and the summed requests. Pure.
 */
import {
  AnnotationNodePoolHash,
  AnnotationNodePoolHashVersion,
  LabelNodePool,
  NodePoolHashVersion,
  nodeClassLabelKey,
} from '../../apis/v1/labels.js';
import { nodePoolHash } from '../disruption/nodepool-hash.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { NodeClaimApiVersion, NodeClaimKind } from '../../apis/v1/nodeclaim.js';
import type { NodePool } from '../../apis/v1/nodepool.js';
import { NodePoolApiVersion, NodePoolKind } from '../../apis/v1/nodepool.js';
import type { NodeSelectorRequirementWithMinValues } from '../../apis/v1/common.js';
import { formatResourceList } from '../quantity/index.js';
import type { RequirementSpec } from '../instancetypes/types.js';
import type { PlannedNodeClaim } from '../scheduling/types.js';

/** Requirement keys never copied to labels: they are set by the kubelet/cloud or are not labels at all. */
const nonLabelKeys = new Set(['kubernetes.io/hostname']);

/** Labels every node of the claim will carry: `In` requirements with exactly one value. */
export function singleValuedLabels(requirements: readonly RequirementSpec[]): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const r of requirements) {
    if (r.operator === 'In' && r.values?.length === 1 && !nonLabelKeys.has(r.key)) labels[r.key] = r.values[0] as string;
  }
  return labels;
}

export interface NodeClaimTemplateOptions {
  /** The NodeClass group when the NodePool's reference omits it. */
  defaultNodeClassGroup?: string;
}

/** The NodeClaim body for `planned` in `nodePool`; the server picks the name from `generateName`. */
export function nodeClaimFromDecision(planned: PlannedNodeClaim, nodePool: NodePool, options: NodeClaimTemplateOptions = {}): NodeClaim {
  const poolName = nodePool.metadata?.name ?? planned.nodePool;
  const template = nodePool.spec.template;
  const ref = template.spec.nodeClassRef;
  const group = ref.group || options.defaultNodeClassGroup || '';
  const requirements = planned.requirements.map(toApiRequirement);
  const labels: Record<string, string> = {
    ...singleValuedLabels(planned.requirements),
    ...(template.metadata?.labels ?? {}),
    [LabelNodePool]: poolName,
    ...(group ? { [nodeClassLabelKey(group, ref.kind)]: ref.name } : {}),
  };
  const ownerUid = nodePool.metadata?.uid;
  return {
    apiVersion: NodeClaimApiVersion,
    kind: NodeClaimKind,
    metadata: {
      generateName: `${poolName}-`,
      labels,
      annotations: {
        ...(template.metadata?.annotations ?? {}),
        [AnnotationNodePoolHash]: nodePoolHash(nodePool),
        [AnnotationNodePoolHashVersion]: NodePoolHashVersion,
      },
      ...(ownerUid
        ? {
            ownerReferences: [
              { apiVersion: NodePoolApiVersion, kind: NodePoolKind, name: poolName, uid: ownerUid, blockOwnerDeletion: true },
            ],
          }
        : {}),
    },
    spec: {
      nodeClassRef: { group, kind: ref.kind, name: ref.name },
      requirements,
      resources: { requests: formatResourceList(planned.requests) },
      ...(template.spec.taints?.length ? { taints: template.spec.taints } : {}),
      ...(template.spec.startupTaints?.length ? { startupTaints: template.spec.startupTaints } : {}),
      ...(template.spec.expireAfter !== undefined ? { expireAfter: template.spec.expireAfter } : {}),
      ...(template.spec.terminationGracePeriod !== undefined ? { terminationGracePeriod: template.spec.terminationGracePeriod } : {}),
    },
  } as NodeClaim;
}

function toApiRequirement(r: RequirementSpec): NodeSelectorRequirementWithMinValues {
  return {
    key: r.key,
    operator: r.operator,
    ...(r.values !== undefined ? { values: [...r.values] } : {}),
    ...(r.minValues !== undefined ? { minValues: r.minValues } : {}),
  } as NodeSelectorRequirementWithMinValues;
}
