/**
 * The fake's own small requirements matching and quantity parsing. The project's requirements algebra
 * (src/domain/requirements) was not available when the fake was written; this covers what a fake launch
 * needs: does an offering's label set satisfy the NodeClaim's requirements, and do its requests fit.
 * `minValues` is a scheduling concern and is not checked here.
 */
import { LabelCapacityType, LabelInstanceType, LabelTopologyZone } from '../../apis/v1/labels.js';
import type { InstanceType, Offering, ResourceList } from '../../domain/instancetypes/types.js';
import type { CloudProviderRequirement } from '../types.js';

/** The labels a node launched from this offering would carry. */
export function offeringLabels(instanceType: InstanceType, offering: Offering): Record<string, string> {
  return {
    ...instanceType.labels,
    [LabelInstanceType]: instanceType.name,
    [LabelTopologyZone]: offering.zone,
    [LabelCapacityType]: offering.capacityType,
  };
}

function integerBound(values: readonly string[] | undefined): number | undefined {
  const raw = values?.[0];
  if (raw === undefined || !/^-?\d+$/.test(raw)) return undefined;
  return Number(raw);
}

function numericCompare(operator: string, label: string, bound: number | undefined): boolean {
  if (bound === undefined || !/^-?\d+$/.test(label)) return false;
  const value = Number(label);
  if (operator === 'Gt') return value > bound;
  if (operator === 'Lt') return value < bound;
  if (operator === 'Gte') return value >= bound;
  return value <= bound;
}

/**
 * Whether labels satisfy one requirement. A key the instance type does not define is no constraint (the
 * node gets that label from the NodeClaim), as Karpenter allows undefined labels when matching types.
 */
export function satisfies(labels: Readonly<Record<string, string>>, requirement: CloudProviderRequirement): boolean {
  const label = labels[requirement.key];
  if (label === undefined) return true;
  switch (requirement.operator) {
    case 'In':
      return (requirement.values ?? []).includes(label);
    case 'NotIn':
      return !(requirement.values ?? []).includes(label);
    case 'Exists':
      return true;
    case 'DoesNotExist':
      return false;
    case 'Gt':
    case 'Lt':
    case 'Gte':
    case 'Lte':
      return numericCompare(requirement.operator, label, integerBound(requirement.values));
    default:
      return false;
  }
}

export function satisfiesAll(labels: Readonly<Record<string, string>>, requirements: readonly CloudProviderRequirement[]): boolean {
  return requirements.every((requirement) => satisfies(labels, requirement));
}

const BinarySuffixes: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DecimalSuffixes: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

export class InvalidQuantityError extends Error {
  constructor(resource: string, value: string | number) {
    super(`parsing quantity: ${resource} is ${JSON.stringify(value)}, accepted: a Kubernetes quantity such as "500m", "2", "4Gi"`);
    this.name = 'InvalidQuantityError';
  }
}

/** A request in the units of ResourceList: millicores for `cpu`, base units (rounded up) for the rest. */
export function parseRequest(resource: string, value: string | number): number {
  const match = /^([+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$/.exec(String(value).trim());
  if (!match?.[1]) throw new InvalidQuantityError(resource, value);
  const suffix = match[2] ?? '';
  const multiplier = BinarySuffixes[suffix] ?? DecimalSuffixes[suffix] ?? 1;
  const amount = Number(match[1]) * multiplier * (resource === 'cpu' ? 1000 : 1);
  // toPrecision drops binary noise (1.9 × 1000 = 1900.0000000000002) before rounding up.
  return Math.ceil(Number(amount.toPrecision(15)));
}

/** Whether every request fits the allocatable resources (a resource the type lacks only fits a zero request). */
export function fits(requests: Readonly<Record<string, string | number>> | undefined, allocatable: ResourceList): boolean {
  for (const [resource, value] of Object.entries(requests ?? {})) {
    if (parseRequest(resource, value) > (allocatable[resource] ?? 0)) return false;
  }
  return true;
}
