/**
 * A NodePool prepared for one solve (Karpenter NodeClaimTemplate): its requirements (plus template labels
 * and the nodepool label), its taints, the instance types its requirements admit with the DaemonSet
 * overhead taken off their allocatable, the zones they are offered in, and what its limits still allow.
 */
import { CapacityTypeOnDemand, LabelCapacityType, LabelNodePool, LabelTopologyZone } from '../../apis/v1/labels.js';
import type { InstanceType, ResourceList } from '../instancetypes/types.js';
import { addResources, subtractResources } from '../quantity/index.js';
import { remainingLimits, type RemainingLimits } from '../nodepool/limits.js';
import { podSchedulingRequests } from '../pods/index.js';
import { firstUntoleratedTaint, Requirement, Requirements, strictPodRequirements, type Taint } from '../requirements/index.js';
import type { PodLike, SchedulingNodePool } from './types.js';

export interface PreparedType {
  type: InstanceType;
  /** Allocatable minus the DaemonSet overhead on this NodePool × type. */
  allocatable: ResourceList;
  overhead: ResourceList;
  /** zone -> price of the available offering there. */
  priceByZone: ReadonlyMap<string, number>;
}

export interface PreparedNodePool {
  pool: SchedulingNodePool;
  weight: number;
  requirements: Requirements;
  taints: readonly Taint[];
  /** Admitted types, each with at least one available offering in an admitted zone, cheapest first. */
  types: PreparedType[];
  /** zone -> the types offered there, cheapest there first. */
  typesByZone: Map<string, PreparedType[]>;
  /** Per resource, the largest capacity among the types (limits above it never rule a type out). */
  maxCapacity: Record<string, number>;
  zones: string[];
  cloud: string | undefined;
  /** What the limits still allow (domain/nodepool/limits.ts), less what this solve's claims reserved. */
  remaining: RemainingLimits;
  /** Why types were dropped up front, for unschedulable reasons. */
  note?: string;
}

/** Whether an instance type's labels and offerings meet requirements (keys the type does not label are left to the NodeClaim). */
export function typeMeets(requirements: Requirements, type: InstanceType, zone?: string): boolean {
  for (const r of requirements.values()) {
    if (r.key === LabelTopologyZone) {
      if (zone !== undefined ? !r.has(zone) : !type.offerings.some((o) => o.available && r.has(o.zone))) return false;
      continue;
    }
    if (r.key === LabelCapacityType) {
      if (!r.has(CapacityTypeOnDemand)) return false;
      continue;
    }
    const value = type.labels[r.key];
    if (value === undefined ? !r.allowsAbsent() && isTypeLabelKey(r.key) : !r.has(value)) return false;
  }
  return true;
}

/** Labels instance types carry (well-known and karpenter-eu.io/*): absent means the type has none of it. */
function isTypeLabelKey(key: string): boolean {
  return (
    key.startsWith('karpenter-eu.io/') ||
    key.startsWith('node.kubernetes.io/') ||
    key.startsWith('kubernetes.io/') ||
    key.startsWith('topology.kubernetes.io/')
  );
}

function daemonOverhead(daemonSets: readonly PodLike[], pool: SchedulingNodePool, type: InstanceType): ResourceList {
  const labels: Record<string, string> = { ...type.labels, ...pool.labels, [LabelNodePool]: pool.name };
  const parts: ResourceList[] = [];
  for (const ds of daemonSets) {
    if (firstUntoleratedTaint(pool.taints, ds.spec?.tolerations, ['NoSchedule', 'NoExecute'])) continue;
    const strict = strictPodRequirements(ds);
    if (
      !strict
        .values()
        .every((r) => r.key === LabelTopologyZone || (labels[r.key] === undefined ? r.allowsAbsent() : r.has(labels[r.key] as string)))
    )
      continue;
    const requests = { ...podSchedulingRequests(ds) };
    delete requests.pods;
    parts.push(addResources(requests, { pods: 1 }));
  }
  return addResources(...parts);
}

export function prepareNodePool(pool: SchedulingNodePool, daemonSets: readonly PodLike[]): PreparedNodePool {
  const requirements = Requirements.fromSpecs(pool.requirements);
  requirements.add(...Requirements.fromLabels(pool.labels).values(), Requirement.create(LabelNodePool, 'In', [pool.name]));
  const zoneReq = requirements.has(LabelTopologyZone) ? requirements.get(LabelTopologyZone) : undefined;
  const types: PreparedType[] = [];
  const zones = new Set<string>();
  for (const type of pool.instanceTypes) {
    if (!typeMeets(requirements, type)) continue;
    const priceByZone = new Map<string, number>();
    for (const o of type.offerings) if (o.available && (!zoneReq || zoneReq.has(o.zone))) priceByZone.set(o.zone, o.pricePerHour);
    if (priceByZone.size === 0) continue;
    for (const z of priceByZone.keys()) zones.add(z);
    const overhead = daemonOverhead(daemonSets, pool, type);
    types.push({ type, overhead, allocatable: subtractResources(type.allocatable, overhead), priceByZone });
  }
  types.sort((a, b) => minPrice(a) - minPrice(b) || (a.type.name < b.type.name ? -1 : 1));
  const prepared: PreparedNodePool = {
    pool,
    weight: pool.weight ?? 0,
    requirements,
    taints: pool.taints ?? [],
    types,
    typesByZone: typesByZone(types),
    maxCapacity: maxCapacity(types),
    zones: [...zones].sort(),
    cloud: pool.instanceTypes[0]?.cloud,
    remaining: remainingLimits(pool.limits, pool.usage),
  };
  if (types.length === 0)
    prepared.note = `no instance type of the ${pool.instanceTypes.length} offered meets its requirements with an available offering`;
  return prepared;
}

export function minPrice(t: PreparedType): number {
  let min = Infinity;
  for (const p of t.priceByZone.values()) if (p < min) min = p;
  return min;
}

function typesByZone(types: readonly PreparedType[]): Map<string, PreparedType[]> {
  const byZone = new Map<string, PreparedType[]>();
  for (const t of types) {
    for (const zone of t.priceByZone.keys()) {
      let list = byZone.get(zone);
      if (!list) byZone.set(zone, (list = []));
      list.push(t);
    }
  }
  for (const [zone, list] of byZone)
    list.sort((a, b) => (a.priceByZone.get(zone) as number) - (b.priceByZone.get(zone) as number) || (a.type.name < b.type.name ? -1 : 1));
  return byZone;
}

function maxCapacity(types: readonly PreparedType[]): Record<string, number> {
  const max: Record<string, number> = {};
  for (const t of types) for (const [name, v] of Object.entries(t.type.capacity)) if (v > (max[name] ?? 0)) max[name] = v;
  return max;
}
