/**
 * Outscale instance types: the bundled catalog's tina types (and the flexible GPU bundles built on them)
 * in the NodeClass's region, with one offering per subregion the NodeClass has a subnet in, priced from
 * `ReadPublicCatalog` when it could be read: `vCores × CustomCore:vW-pZ + GiB × CustomRam + GPUs ×
 * Gpu:attach:<model>` (osc-cost `parse_prices`), else from the bundled catalog.
 */
import type { CatalogFile, CatalogFlavor } from '../../catalog/types.js';
import { buildInstanceTypes } from '../../domain/instancetypes/build.js';
import type { InstanceType, Offering } from '../../domain/instancetypes/types.js';
import type { CatalogEntry } from './api-types.js';

const TINA_TYPE = /^tinav(\d+)\.c(\d+)r(\d+)(?:p(\d+))?$/;

/** What CreateVms launches for an instance type: the VM type and, for GPU bundles, the flexible GPUs to link. */
export interface LaunchShape {
  vmType: string;
  flexibleGpu?: { modelName: string; count: number; generation: string };
}

export interface TinaShape {
  generation: number;
  vcores: number;
  ramGiB: number;
  /** 1 highest, 2 high, 3 medium; `tinavW.cXrY` means high. */
  performance: number;
}

export function parseTinaType(vmType: string): TinaShape | undefined {
  const m = TINA_TYPE.exec(vmType);
  if (!m) return undefined;
  return { generation: Number(m[1]), vcores: Number(m[2]), ramGiB: Number(m[3]), performance: m[4] === undefined ? 2 : Number(m[4]) };
}

/** `tinav5.c8r64p1-v100x2` → VM type `tinav5.c8r64p1` + 2 × `nvidia-v100` (the suffix is ours, not the cloud's). */
export function launchShapeOf(flavor: CatalogFlavor): LaunchShape {
  if (!flavor.gpu) return { vmType: flavor.name };
  const vmType = flavor.name.split('-')[0] ?? flavor.name;
  const generation = `v${parseTinaType(vmType)?.generation ?? flavor.generation}`;
  return { vmType, flexibleGpu: { modelName: flavor.gpu.cloudModel ?? `nvidia-${flavor.gpu.name}`, count: flavor.gpu.count, generation } };
}

export interface UnitPrices {
  /** `v5-p2` → EUR per vCore per hour. */
  core: ReadonlyMap<string, number>;
  ramPerGiB?: number;
  /** `nvidia-v100` → EUR per attached GPU per hour. */
  gpu: ReadonlyMap<string, number>;
}

/** The unit prices of `ReadPublicCatalog` entries (on-demand compute only; everything else is ignored). */
export function unitPricesOf(entries: readonly CatalogEntry[]): UnitPrices {
  const core = new Map<string, number>();
  const gpu = new Map<string, number>();
  let ramPerGiB: number | undefined;
  for (const e of entries) {
    if (e.Service !== 'TinaOS-FCU' || !Number.isFinite(e.UnitPrice)) continue;
    if (e.Type.startsWith('CustomCore:') && e.Operation === 'RunInstances-OD') core.set(e.Type.slice('CustomCore:'.length), e.UnitPrice);
    else if (e.Type === 'CustomRam' && e.Operation === 'RunInstances-OD') ramPerGiB = e.UnitPrice;
    else if (e.Type.startsWith('Gpu:attach:')) gpu.set(e.Type.slice('Gpu:attach:'.length), e.UnitPrice);
  }
  return ramPerGiB === undefined ? { core, gpu } : { core, ramPerGiB, gpu };
}

/** The hourly price of a flavor from unit prices, or undefined when a unit it needs is missing. */
export function priceFromUnits(flavor: CatalogFlavor, units: UnitPrices): number | undefined {
  const shape = launchShapeOf(flavor);
  const tina = parseTinaType(shape.vmType);
  if (!tina || units.ramPerGiB === undefined) return undefined;
  const corePrice = units.core.get(`v${tina.generation}-p${tina.performance}`);
  if (corePrice === undefined) return undefined;
  let price = tina.vcores * corePrice + tina.ramGiB * units.ramPerGiB;
  if (shape.flexibleGpu) {
    const gpuPrice = units.gpu.get(shape.flexibleGpu.modelName);
    if (gpuPrice === undefined) return undefined;
    price += shape.flexibleGpu.count * gpuPrice;
  }
  return Math.round(price * 1e6) / 1e6;
}

export interface OutscaleInstanceTypesInput {
  catalog: CatalogFile;
  region: string;
  /** Subregions the NodeClass has a subnet in: the only zones offered. */
  subregions: readonly string[];
  /** From ReadPublicCatalog; undefined when it could not be read (bundled prices are used). */
  unitPrices?: UnitPrices;
  unavailable?: (instanceType: string, zone: string) => boolean;
}

function offeringsOf(base: InstanceType, flavor: CatalogFlavor | undefined, input: OutscaleInstanceTypesInput): Offering[] {
  const live = flavor && input.unitPrices ? priceFromUnits(flavor, input.unitPrices) : undefined;
  const fallback = base.offerings[0]?.pricePerHour;
  const price = live ?? fallback;
  if (price === undefined) return [];
  const zones = flavor?.zones ?? input.catalog.regions.find((r) => r.name === base.region)?.zones ?? [];
  return zones
    .filter((zone) => input.subregions.includes(zone))
    .map((zone) => ({ zone, capacityType: 'on-demand', pricePerHour: price, available: !(input.unavailable?.(base.name, zone) ?? false) }));
}

/** Every catalog type of the region (even those without an available offering), offered in the NodeClass's subregions. */
export function buildOutscaleInstanceTypes(input: OutscaleInstanceTypesInput): InstanceType[] {
  const flavors = new Map(input.catalog.flavors.map((f) => [f.name, f]));
  return buildInstanceTypes(input.catalog, input.region).map((base) => {
    const flavor = flavors.get(base.name);
    const offerings = offeringsOf(base, flavor, input);
    const live = flavor && input.unitPrices ? priceFromUnits(flavor, input.unitPrices) : undefined;
    const instanceType: InstanceType = { ...base, offerings };
    if (live !== undefined) delete instanceType.priceNote;
    return instanceType;
  });
}
