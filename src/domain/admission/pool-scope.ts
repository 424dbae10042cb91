/**
 * What a NodePool can launch: its cloud (from the nodeClassRef group), its NodeClass (from the context),
 * the region that class names, and the catalog instance types its requirements allow there.
 */
import { type CloudName, LabelCapacityType, LabelTopologyZone, LabelBilling } from '../../apis/v1/labels.js';
import type { CatalogFile, CatalogRegion } from '../../catalog/types.js';
import { buildInstanceTypes } from '../instancetypes/build.js';
import type { InstanceType, RequirementSpec } from '../instancetypes/types.js';
import { Requirement } from '../requirements/requirement.js';
import { normalizeLabelKey, WellKnownLabels } from '../requirements/well-known.js';
import { asArray, asString, field, kindOf, nameOf, nodeClassRefOf, requirementsOf, type NodeClassRef } from './object-access.js';
import { isLiveCatalog } from './rules/catalog-authority.js';
import type { AdmissionContext, KubeObject } from './types.js';

export const NodeClassGroups: Readonly<Record<string, { cloud: CloudName; kind: string }>> = {
  'karpenter.ovhcloud.sh': { cloud: 'ovhcloud', kind: 'OVHNodeClass' },
  'karpenter.scaleway.sh': { cloud: 'scaleway', kind: 'ScalewayNodeClass' },
  'karpenter.outscale.sh': { cloud: 'outscale', kind: 'OutscaleNodeClass' },
};

/** Where a NodePool launches: everything of its scope that its requirements do not change. */
export interface PoolTarget {
  ref?: NodeClassRef;
  cloud?: CloudName;
  nodeClass?: KubeObject;
  catalog?: CatalogFile;
  /** True when the region's flavors were read from the cloud (then an unknown flavor is proof it is not sold there). */
  live: boolean;
  region?: CatalogRegion;
  /** Instance types of the region (or of the whole cloud when the region is unknown). */
  instanceTypes: readonly InstanceType[];
}

export interface PoolScope extends PoolTarget {
  /** Those the requirements allow (zone and capacity type aside). */
  allowed: readonly InstanceType[];
}

/** The region a NodeClass names: OVH `region` (or the configured default), Scaleway zones' region, Outscale `region`. */
export function nodeClassRegion(nodeClass: KubeObject, context: AdmissionContext): string | undefined {
  const spec = field(nodeClass, 'spec');
  switch (kindOf(nodeClass)) {
    case 'OVHNodeClass':
      return asString(field(spec, 'region')) ?? context.defaults.ovh?.region;
    case 'ScalewayNodeClass': {
      const zone = asString(asArray(field(spec, 'zones'))[0]);
      return zone?.replace(/-[0-9]+$/, '');
    }
    case 'OutscaleNodeClass':
      return asString(field(spec, 'region'));
    default:
      return undefined;
  }
}

export function findNodeClass(context: AdmissionContext, ref: NodeClassRef): KubeObject | undefined {
  return context.nodeClasses.find((c) => kindOf(c) === ref.kind && nameOf(c) === ref.name);
}

// Instance types per catalog and region are derived data: memoised per catalog object, never global state.
const instanceTypeMemo = new WeakMap<CatalogFile, Map<string, InstanceType[]>>();

export function instanceTypesOf(catalog: CatalogFile, region: CatalogRegion | undefined): readonly InstanceType[] {
  let byRegion = instanceTypeMemo.get(catalog);
  if (!byRegion) instanceTypeMemo.set(catalog, (byRegion = new Map()));
  const key = region?.name ?? '*';
  let types = byRegion.get(key);
  if (!types) {
    const regions = region ? [region] : catalog.regions;
    const seen = new Set<string>();
    types = regions.flatMap((r) => buildInstanceTypes(catalog, r.name)).filter((t) => !seen.has(t.name) && seen.add(t.name) !== undefined);
    byRegion.set(key, types);
  }
  return types;
}

/** Keys that select offerings or billing rather than the instance type itself. */
const nonTypeKeys = new Set([LabelTopologyZone, LabelCapacityType, LabelBilling]);

interface CompiledRequirement {
  key: string;
  requirement: Requirement;
  /** karpenter-eu puts this label on instance types, so absence means "none" (no GPU); other keys are the pool's own. */
  ownsKey: boolean;
}

function compile(specs: readonly RequirementSpec[]): CompiledRequirement[] {
  return specs.flatMap((spec) => {
    const key = normalizeLabelKey(spec.key);
    if (nonTypeKeys.has(key)) return [];
    try {
      return [
        {
          key,
          requirement: Requirement.fromSpec({ ...spec, key }),
          ownsKey: key.startsWith('karpenter-eu.io/') || WellKnownLabels.has(key),
        },
      ];
    } catch {
      return []; // malformed requirements are reported by the schema rules
    }
  });
}

function satisfies(compiled: readonly CompiledRequirement[], instanceType: InstanceType): boolean {
  for (const { key, requirement, ownsKey } of compiled) {
    const value = instanceType.labels[key];
    if (value === undefined ? ownsKey && !requirement.allowsAbsent() : !requirement.has(value)) return false;
  }
  return true;
}

/** Whether an instance type's labels satisfy the requirements (zone, capacity type and billing aside). */
export function allowsInstanceType(specs: readonly RequirementSpec[], instanceType: InstanceType): boolean {
  return satisfies(compile(specs), instanceType);
}

/** The NodePool's cloud, class, catalog, region and the region's instance types, its requirements aside. */
export function resolvePoolTarget(pool: KubeObject, context: AdmissionContext): PoolTarget {
  const ref = nodeClassRefOf(pool);
  const cloud = ref ? NodeClassGroups[ref.group]?.cloud : undefined;
  const nodeClass = ref ? findNodeClass(context, ref) : undefined;
  const catalog = cloud ? context.catalogs[cloud] : undefined;
  if (!catalog) return { ref, cloud, nodeClass, live: false, instanceTypes: [] };
  const regionName = nodeClass ? nodeClassRegion(nodeClass, context) : undefined;
  const region = regionName ? catalog.regions.find((r) => r.name.toLowerCase() === regionName.toLowerCase()) : undefined;
  const instanceTypes = instanceTypesOf(catalog, region);
  const live = region !== undefined && isLiveCatalog(context, cloud, region.name);
  return { ref, cloud, nodeClass, catalog, live, region, instanceTypes };
}

/** The target's instance types the pool's requirements allow (the target resolved for the same nodeClassRef). */
export function scopeOf(pool: KubeObject, target: PoolTarget): PoolScope {
  if (target.instanceTypes.length === 0) return { ...target, allowed: [] };
  const compiled = compile(requirementsOf(pool).map((r) => r.spec));
  return { ...target, allowed: target.instanceTypes.filter((t) => satisfies(compiled, t)) };
}

export function resolvePoolScope(pool: KubeObject, context: AdmissionContext): PoolScope {
  return scopeOf(pool, resolvePoolTarget(pool, context));
}

interface NameIndex {
  names: readonly string[];
  set: ReadonlySet<string>;
}

// Name lists of catalogs and instance-type lists are derived data: memoised per (immutable) list object.
const flavorNameMemo = new WeakMap<CatalogFile, NameIndex>();
const typeNameMemo = new WeakMap<readonly InstanceType[], NameIndex>();

function indexOf(names: readonly string[]): NameIndex {
  return { names, set: new Set(names) };
}

/** The catalog's flavor names, in catalog order. */
export function flavorNamesOf(catalog: CatalogFile): NameIndex {
  let index = flavorNameMemo.get(catalog);
  if (!index) flavorNameMemo.set(catalog, (index = indexOf(catalog.flavors.map((f) => f.name))));
  return index;
}

/** The names of a scope's instance types, in their order. */
export function instanceTypeNamesOf(types: readonly InstanceType[]): NameIndex {
  let index = typeNameMemo.get(types);
  if (!index) typeNameMemo.set(types, (index = indexOf(types.map((t) => t.name))));
  return index;
}
