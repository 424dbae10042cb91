/**
 * Scaleway's spellings of instance types (pure). Instance-type values are resolved through the GPU
 * flavor mapping before offerings are chosen, so the NodeClaims of the Scaleway GPU controller users already run
 * (`node.kubernetes.io/instance-type In [l4]`, or its legacy `karpenter.sh/instance-type` label, with
 * `l4`, `l40s`, `3070`, `GPU-L4-S`) keep launching the commercial types they meant.
 */
import { LabelInstanceType } from '../../apis/v1/labels.js';
import {
  availableOnly,
  compatibleOfferings,
  resolveGpuAlias,
  type InstanceType,
  type LaunchCandidate,
  type OfferingQuery,
  type RequirementSpec,
} from '../../domain/instancetypes/index.js';

/** The instance-type label of the Scaleway GPU controller, read as the well-known one. */
export const LegacyLabelInstanceType = 'karpenter.sh/instance-type';

/** `l4` → `L4-1-24G`, `3070` → `GPU-3070-S`; anything else unchanged. */
export function resolveInstanceTypeAlias(value: string): string {
  return resolveGpuAlias('scaleway', value) ?? value;
}

/** The requirements with GPU aliases resolved and the legacy instance-type key renamed. */
export function normaliseRequirements(requirements: readonly RequirementSpec[]): RequirementSpec[] {
  return requirements.map((r) => {
    const key = r.key === LegacyLabelInstanceType ? LabelInstanceType : r.key;
    if (key !== LabelInstanceType || !r.values) return { ...r, key };
    return { ...r, key, values: r.values.map(resolveInstanceTypeAlias) };
  });
}

/**
 * Available offerings for the NodeClaim, cheapest first, its instance-type values read through the
 * aliases above; the rule itself is every cloud's (domain/instancetypes/offering-choice.ts).
 */
export function launchCandidates(instanceTypes: readonly InstanceType[], query: OfferingQuery): LaunchCandidate[] {
  return availableOnly(compatibleOfferings(instanceTypes, query, { normaliseRequirements }));
}
