/**
 * Which offerings a NodeClaim may launch on, cheapest first (pure): instance types whose labels meet its
 * requirements and whose allocatable fits its requests. A label an instance type speaks for but lacks
 * means "does not exist": a CPU flavor has no `instance-gpu-name`, so `instance-gpu-name In [v100]` never
 * matches it (the trap found in the Outscale provider). Other keys (the NodePool, users' custom labels)
 * are the NodeClaim's own and constrain no instance type.
 */
import { LabelCapacityType, LabelInstanceType, LabelNodePool, LabelTopologyZone } from '../../apis/v1/labels.js';
import type { InstanceType, Offering } from '../../domain/instancetypes/types.js';
import { fitsResources, parseResourceList } from '../../domain/quantity/resource-list.js';
import { Requirements } from '../../domain/requirements/requirements.js';
import { WellKnownLabels } from '../../domain/requirements/well-known.js';
import type { CloudProviderNodeClaim } from '../types.js';

export interface LaunchCandidate {
  instanceType: InstanceType;
  offering: Offering;
}

const InstanceTypeLabelKeys: ReadonlySet<string> = new Set([...WellKnownLabels].filter((key) => key !== LabelNodePool));

export function offeringLabels(instanceType: InstanceType, offering: Offering): Record<string, string> {
  return { ...instanceType.labels, [LabelInstanceType]: instanceType.name, [LabelTopologyZone]: offering.zone, [LabelCapacityType]: offering.capacityType };
}

export function offeringSatisfies(requirements: Requirements, labels: Readonly<Record<string, string>>): boolean {
  return requirements.values().every((requirement) => {
    const value = labels[requirement.key];
    if (value !== undefined) return requirement.has(value);
    return !InstanceTypeLabelKeys.has(requirement.key) || requirement.allowsAbsent();
  });
}

/** Compatible offerings — available or not — cheapest first, ties by type name then zone (stable choice). */
export function compatibleOfferings(instanceTypes: readonly InstanceType[], nodeClaim: CloudProviderNodeClaim): LaunchCandidate[] {
  const requirements = Requirements.fromSpecs(nodeClaim.spec.requirements);
  const requests = parseResourceList(nodeClaim.spec.resources?.requests);
  const candidates: LaunchCandidate[] = [];
  for (const instanceType of instanceTypes) {
    if (!fitsResources(requests, instanceType.allocatable)) continue;
    for (const offering of instanceType.offerings) {
      if (offeringSatisfies(requirements, offeringLabels(instanceType, offering))) candidates.push({ instanceType, offering });
    }
  }
  return candidates.sort(
    (a, b) => a.offering.pricePerHour - b.offering.pricePerHour || a.instanceType.name.localeCompare(b.instanceType.name) || a.offering.zone.localeCompare(b.offering.zone),
  );
}
