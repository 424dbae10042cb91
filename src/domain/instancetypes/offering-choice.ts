/**
 * Which offerings a NodeClaim may launch on, for every cloud (pure). An offering qualifies when its
 * instance type's allocatable fits the NodeClaim's requests and its labels meet every requirement. A
 * well-known label the instance type lacks means "does not exist": a CPU type has no
 * `instance-gpu-name`, so `instance-gpu-name In [l4]` never matches it. That matters for a NodeClaim a
 * user creates directly, which no provisioner narrowed to compatible types first. Other keys (the
 * NodePool, users' custom labels) are the NodeClaim's own and constrain no instance type.
 */
import { LabelCapacityType, LabelInstanceType, LabelNodePool, LabelTopologyZone } from '../../apis/v1/labels.js';
import type { NodeClaimSpec } from '../../apis/v1/nodeclaim.js';
import { fitsResources, parseResourceList } from '../quantity/resource-list.js';
import { Requirements } from '../requirements/requirements.js';
import { WellKnownLabels } from '../requirements/well-known.js';
import type { InstanceType, Offering, RequirementSpec } from './types.js';

export interface LaunchCandidate {
  instanceType: InstanceType;
  offering: Offering;
}

/** What a NodeClaim asks for: its requirements and resource requests. */
export type OfferingQuery = Pick<NodeClaimSpec, 'requirements' | 'resources'>;

/** What a cloud reads differently: its own spellings of requirement values (Scaleway's GPU aliases). */
export interface OfferingChoiceHooks {
  normaliseRequirements?: (requirements: readonly RequirementSpec[]) => RequirementSpec[];
}

const InstanceTypeLabelKeys: ReadonlySet<string> = new Set([...WellKnownLabels].filter((key) => key !== LabelNodePool));

export function offeringLabels(instanceType: InstanceType, offering: Offering): Record<string, string> {
  return {
    ...instanceType.labels,
    [LabelInstanceType]: instanceType.name,
    [LabelTopologyZone]: offering.zone,
    [LabelCapacityType]: offering.capacityType,
  };
}

export function offeringSatisfies(requirements: Requirements, labels: Readonly<Record<string, string>>): boolean {
  return requirements.values().every((requirement) => {
    const value = labels[requirement.key];
    if (value !== undefined) return requirement.has(value);
    return !InstanceTypeLabelKeys.has(requirement.key) || requirement.allowsAbsent();
  });
}

/**
 * Cheapest first; ties by type name then zone in code-unit order, so every process and every retry
 * (Outscale's ClientToken) picks the same offering whatever the locale.
 */
function cheaperFirst(a: LaunchCandidate, b: LaunchCandidate): number {
  if (a.offering.pricePerHour !== b.offering.pricePerHour) return a.offering.pricePerHour - b.offering.pricePerHour;
  if (a.instanceType.name !== b.instanceType.name) return a.instanceType.name < b.instanceType.name ? -1 : 1;
  if (a.offering.zone === b.offering.zone) return 0;
  return a.offering.zone < b.offering.zone ? -1 : 1;
}

/**
 * Every compatible offering, available or not, cheapest first. Callers launch on the available ones and
 * tell "out of stock" (compatible offerings, none available) from "never possible" (none compatible).
 */
export function compatibleOfferings(
  instanceTypes: readonly InstanceType[],
  query: OfferingQuery,
  hooks: OfferingChoiceHooks = {},
): LaunchCandidate[] {
  const specs = hooks.normaliseRequirements ? hooks.normaliseRequirements(query.requirements) : query.requirements;
  const requirements = Requirements.fromSpecs(specs);
  const requests = parseResourceList(query.resources?.requests);
  const candidates: LaunchCandidate[] = [];
  for (const instanceType of instanceTypes) {
    if (!fitsResources(requests, instanceType.allocatable)) continue;
    for (const offering of instanceType.offerings) {
      if (offeringSatisfies(requirements, offeringLabels(instanceType, offering))) candidates.push({ instanceType, offering });
    }
  }
  return candidates.sort(cheaperFirst);
}

export function availableOnly(candidates: readonly LaunchCandidate[]): LaunchCandidate[] {
  return candidates.filter((c) => c.offering.available);
}
