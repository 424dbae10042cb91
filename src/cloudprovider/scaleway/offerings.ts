/**
 * Which offerings a NodeClaim may launch on, cheapest first (pure). Instance-type values are resolved
 * through the GPU flavor mapping first, so the NodeClaims of the Scaleway GPU controller users already run
 * (`node.kubernetes.io/instance-type In [l4]`, or its legacy `karpenter.sh/instance-type` label, with
 * `l4`, `l40s`, `3070`, `GPU-L4-S`) keep launching the commercial types they meant.
 */
import { LabelCapacityType, LabelInstanceType, LabelTopologyZone } from '../../apis/v1/labels.js';
import { resolveGpuAlias } from '../../domain/instancetypes/gpu-mapping.js';
import type { InstanceType, Offering, RequirementSpec } from '../../domain/instancetypes/types.js';
import { fitsResources, parseResourceList } from '../../domain/quantity/index.js';
import { Requirements } from '../../domain/requirements/index.js';

/** The instance-type label of the Scaleway GPU controller (seed 000), read as the well-known one. */
export const LegacyLabelInstanceType = 'karpenter.sh/instance-type';

export interface LaunchCandidate {
  instanceType: InstanceType;
  offering: Offering;
}

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

function offeringLabels(instanceType: InstanceType, offering: Offering): Record<string, string> {
  return { ...instanceType.labels, [LabelInstanceType]: instanceType.name, [LabelTopologyZone]: offering.zone, [LabelCapacityType]: offering.capacityType };
}

/** Whether the labels meet every requirement on a key they define (others are the NodeClaim's own labels). */
function satisfies(requirements: Requirements, labels: Readonly<Record<string, string>>): boolean {
  return requirements.values().every((r) => {
    const value = labels[r.key];
    return value === undefined || r.has(value);
  });
}

/**
 * Available offerings matching the requirements whose type fits the requests, cheapest first (ties by
 * type name then zone, so the choice is stable).
 */
export function launchCandidates(
  instanceTypes: readonly InstanceType[],
  requirementSpecs: readonly RequirementSpec[],
  requests: Readonly<Record<string, string | number>> | undefined,
): LaunchCandidate[] {
  const requirements = Requirements.fromSpecs(normaliseRequirements(requirementSpecs));
  const wanted = parseResourceList(requests ?? {});
  const candidates: LaunchCandidate[] = [];
  for (const instanceType of instanceTypes) {
    if (!fitsResources(wanted, instanceType.allocatable)) continue;
    for (const offering of instanceType.offerings) {
      if (offering.available && satisfies(requirements, offeringLabels(instanceType, offering))) candidates.push({ instanceType, offering });
    }
  }
  return candidates.sort(
    (a, b) => a.offering.pricePerHour - b.offering.pricePerHour || a.instanceType.name.localeCompare(b.instanceType.name) || a.offering.zone.localeCompare(b.offering.zone),
  );
}
