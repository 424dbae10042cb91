/**
 * The shapes the scheduling simulation, the catalogs and the cloud providers share.
 *
 * ResourceList values are plain numbers in the units kube-scheduler compares:
 * `cpu` in millicores, every other resource (memory, ephemeral-storage, pods, nvidia.com/gpu…) in base
 * units (bytes, counts), rounded up as the scheduler's Quantity.Value() does.
 */
import type { CloudName } from '../../apis/v1/labels.js';

export type ResourceList = Readonly<Record<string, number>>;

/** A label requirement in Karpenter's NodeSelectorRequirementWithMinValues shape. */
export interface RequirementSpec {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt' | 'Gte' | 'Lte';
  values?: string[];
  minValues?: number;
}

/** Where and at what price an instance type can be launched. */
export interface Offering {
  zone: string;
  capacityType: 'on-demand';
  /** EUR per hour, excl. VAT. */
  pricePerHour: number;
  /** False while the cloud reports it out of stock / unavailable (or the ICE cache holds it). */
  available: boolean;
}

export interface GpuInfo {
  count: number;
  /** Normalised lower-case model name, e.g. `l4`, `h100`. */
  name: string;
  memoryMiB: number;
  manufacturer: 'nvidia' | 'amd';
}

export interface InstanceType {
  name: string;
  cloud: CloudName;
  region: string;
  /** Labels every node of this type carries (well-known + karpenter-eu.io/*), single values. */
  labels: Readonly<Record<string, string>>;
  capacity: ResourceList;
  /** Capacity minus kube-reserved, system-reserved and the eviction threshold. */
  allocatable: ResourceList;
  offerings: readonly Offering[];
  gpu?: GpuInfo;
  /** Set when the offering prices are estimates or unknown (then `offerings` is empty): says which and why. */
  priceNote?: string;
  /** Set when the cloud could not be read and the bundled catalog answered in its place: not the cloud's list. */
  fromBundledCatalog?: true;
}
