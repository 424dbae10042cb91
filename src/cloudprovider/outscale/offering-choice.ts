/**
 * Which offering a NodeClaim launches: among the instance types whose labels are compatible with its
 * requirements and whose allocatable fits its requests, the cheapest available offering (ties broken by
 * name then zone, so a retry chooses the same one and the ClientToken stays meaningful).
 */
import { LabelCapacityType, LabelInstanceType, LabelTopologyZone } from '../../apis/v1/labels.js';
import type { InstanceType, Offering } from '../../domain/instancetypes/types.js';
import { LabelNodePool } from '../../apis/v1/labels.js';
import { fitsResources, parseResourceList } from '../../domain/quantity/resource-list.js';
import { Requirements } from '../../domain/requirements/requirements.js';
import { WellKnownLabels } from '../../domain/requirements/well-known.js';
import type { CloudProviderNodeClaim } from '../types.js';

export interface LaunchCandidate {
  instanceType: InstanceType;
  offering: Offering;
}

export interface OfferingChoice {
  /** The cheapest available candidate, when there is one. */
  best?: LaunchCandidate;
  /** How many compatible offerings exist, available or not (0: no instance type can ever serve the NodeClaim). */
  compatible: number;
}

export function offeringLabels(instanceType: InstanceType, offering: Offering): Record<string, string> {
  return { ...instanceType.labels, [LabelInstanceType]: instanceType.name, [LabelTopologyZone]: offering.zone, [LabelCapacityType]: offering.capacityType };
}

/**
 * Labels an instance type speaks for: one it lacks among these means "does not exist" (a CPU type has no
 * `instance-gpu-name`, so `instance-gpu-name In [v100]` excludes it). Other keys (the NodePool, users'
 * custom labels) are the NodeClaim's to set and constrain no instance type.
 */
const InstanceTypeLabelKeys: ReadonlySet<string> = new Set([...WellKnownLabels].filter((key) => key !== LabelNodePool));

export function offeringSatisfies(requirements: Requirements, labels: Readonly<Record<string, string>>): boolean {
  for (const requirement of requirements.values()) {
    const value = labels[requirement.key];
    if (value !== undefined) {
      if (!requirement.has(value)) return false;
    } else if (InstanceTypeLabelKeys.has(requirement.key) && !requirement.allowsAbsent()) {
      return false;
    }
  }
  return true;
}

function cheaper(a: LaunchCandidate, b: LaunchCandidate): boolean {
  if (a.offering.pricePerHour !== b.offering.pricePerHour) return a.offering.pricePerHour < b.offering.pricePerHour;
  if (a.instanceType.name !== b.instanceType.name) return a.instanceType.name < b.instanceType.name;
  return a.offering.zone < b.offering.zone;
}

export function chooseOffering(instanceTypes: readonly InstanceType[], nodeClaim: CloudProviderNodeClaim): OfferingChoice {
  const requirements = Requirements.fromSpecs(nodeClaim.spec.requirements);
  const requests = parseResourceList(nodeClaim.spec.resources?.requests);
  let best: LaunchCandidate | undefined;
  let compatible = 0;
  for (const instanceType of instanceTypes) {
    if (!fitsResources(requests, instanceType.allocatable)) continue;
    for (const offering of instanceType.offerings) {
      if (!offeringSatisfies(requirements, offeringLabels(instanceType, offering))) continue;
      compatible += 1;
      const candidate = { instanceType, offering };
      if (offering.available && (!best || cheaper(candidate, best))) best = candidate;
    }
  }
  return best ? { best, compatible } : { compatible };
}
