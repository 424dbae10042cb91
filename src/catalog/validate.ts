/**
 * Shape check of a catalog file, run once when it is loaded: a malformed file fails with an error naming the
 * file, the flavor (or region) and the field, instead of surfacing later as NaN prices or missing zones.
 */
import { CloudNames, type CloudName } from '../apis/v1/labels.js';
import type { CatalogFile, CatalogFlavor, CatalogGpu, CatalogPrice, CatalogRegion, CatalogSource } from './types.js';

export class CatalogValidationError extends Error {
  constructor(
    readonly file: string,
    readonly where: string,
    readonly field: string,
    problem: string,
  ) {
    super(`loading catalog ${file}: ${where}: field "${field}" ${problem}`);
    this.name = 'CatalogValidationError';
  }
}

type Obj = Record<string, unknown>;

class Checker {
  constructor(
    private readonly file: string,
    private readonly where: string,
  ) {}

  fail(field: string, problem: string): never {
    throw new CatalogValidationError(this.file, this.where, field, problem);
  }

  object(value: unknown, field: string): Obj {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(field, 'must be an object');
    return value as Obj;
  }

  string(o: Obj, field: string): string {
    const v = o[field];
    if (typeof v !== 'string' || v.length === 0) this.fail(field, `must be a non-empty string, got ${JSON.stringify(v)}`);
    return v;
  }

  optionalString(o: Obj, field: string): string | undefined {
    return o[field] === undefined ? undefined : this.string(o, field);
  }

  positive(o: Obj, field: string, integer = false): number {
    const v = o[field];
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || (integer && !Number.isInteger(v))) {
      this.fail(field, `must be a positive ${integer ? 'integer' : 'number'}, got ${JSON.stringify(v)}`);
    }
    return v;
  }

  priceOrNull(o: Obj, field: string): number | null {
    const v = o[field];
    if (v === null) return null;
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) this.fail(field, `must be a price > 0 or null, got ${JSON.stringify(v)}`);
    return v;
  }

  strings(o: Obj, field: string): string[] {
    const v = o[field];
    if (!Array.isArray(v) || v.length === 0 || v.some((s) => typeof s !== 'string' || s.length === 0)) {
      this.fail(field, 'must be a non-empty list of non-empty strings');
    }
    return v as string[];
  }

  oneOf<T extends string>(o: Obj, field: string, accepted: readonly T[]): T {
    const v = o[field];
    if (!accepted.includes(v as T)) this.fail(field, `must be one of ${accepted.join(', ')}, got ${JSON.stringify(v)}`);
    return v as T;
  }

  list(o: Obj, field: string): unknown[] {
    const v = o[field];
    if (!Array.isArray(v) || v.length === 0) this.fail(field, 'must be a non-empty list');
    return v;
  }
}

function validateRegion(raw: unknown, file: string, index: number): CatalogRegion {
  const c = new Checker(file, `region #${index}`);
  const o = c.object(raw, 'regions[]');
  const name = c.string(o, 'name');
  const named = new Checker(file, `region ${name}`);
  const location = named.optionalString(o, 'location');
  return { name, zones: named.strings(o, 'zones'), ...(location ? { location } : {}) };
}

function validateGpu(c: Checker, raw: unknown): CatalogGpu {
  const o = c.object(raw, 'gpu');
  const cloudModel = c.optionalString(o, 'cloudModel');
  return {
    count: c.positive(o, 'count', true),
    name: c.string(o, 'name'),
    memoryMiB: c.positive(o, 'memoryMiB', true),
    manufacturer: c.oneOf(o, 'manufacturer', ['nvidia', 'amd'] as const),
    ...(cloudModel ? { cloudModel } : {}),
  };
}

function validatePrice(c: Checker, raw: unknown, regions: readonly string[]): CatalogPrice {
  const o = c.object(raw, 'prices[]');
  const region = c.string(o, 'region');
  if (region !== '*' && !regions.includes(region))
    c.fail('prices[].region', `names region ${region}, which the flavor is not offered in (${regions.join(', ')})`);
  const hourly = c.priceOrNull(o, 'hourly');
  const price: CatalogPrice = { region, hourly };
  if (o.monthly !== undefined) price.monthly = c.priceOrNull(o, 'monthly');
  if (o.estimated !== undefined) {
    if (typeof o.estimated !== 'boolean') c.fail('prices[].estimated', 'must be a boolean');
    price.estimated = o.estimated;
  }
  const note = c.optionalString(o, 'note');
  if (note) price.note = note;
  if ((hourly === null || price.monthly === null || price.estimated) && !note) {
    c.fail('prices[].note', `is required when a price is null or estimated (region ${region})`);
  }
  return price;
}

function validateFlavor(raw: unknown, file: string, index: number, regionZones: ReadonlyMap<string, readonly string[]>): CatalogFlavor {
  const o = new Checker(file, `flavor #${index}`).object(raw, 'flavors[]');
  const name = new Checker(file, `flavor #${index}`).string(o, 'name');
  const c = new Checker(file, `flavor ${name}`);
  const regions = c.strings(o, 'regions');
  for (const r of regions)
    if (!regionZones.has(r)) c.fail('regions', `names unknown region ${r}; the file's regions are ${[...regionZones.keys()].join(', ')}`);
  const flavor: CatalogFlavor = {
    name,
    family: c.string(o, 'family'),
    generation: c.positive(o, 'generation', true),
    vcpus: c.positive(o, 'vcpus', true),
    memoryMiB: c.positive(o, 'memoryMiB', true),
    arch: c.oneOf(o, 'arch', ['amd64', 'arm64'] as const),
    regions,
    prices: c.list(o, 'prices').map((p) => validatePrice(c, p, regions)),
  };
  if (o.gpu !== undefined) flavor.gpu = validateGpu(c, o.gpu);
  if (o.localDiskGiB !== undefined) flavor.localDiskGiB = c.positive(o, 'localDiskGiB', true);
  if (o.zones !== undefined) {
    const offered = new Set(regions.flatMap((r) => regionZones.get(r) ?? []));
    flavor.zones = c.strings(o, 'zones');
    for (const z of flavor.zones)
      if (!offered.has(z)) c.fail('zones', `names zone ${z}, which is not in its regions (${[...offered].join(', ')})`);
  }
  const note = c.optionalString(o, 'note');
  if (note) flavor.note = note;
  return flavor;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function validateSource(raw: unknown, file: string, index: number): CatalogSource {
  const c = new Checker(file, `source #${index}`);
  const o = c.object(raw, '(source)');
  const url = c.string(o, 'url');
  if (!URL.canParse(url) || new URL(url).protocol !== 'https:') c.fail('url', `must be a public https:// URL, got ${JSON.stringify(url)}`);
  const date = c.string(o, 'date');
  if (!ISO_DATE.test(date)) c.fail('date', `must be an ISO date (YYYY-MM-DD), got ${date}`);
  return { title: c.string(o, 'title'), url, date };
}

/** Checks and returns a parsed catalog file; `file` names it in errors. */
export function validateCatalog(raw: unknown, file: string, expectedCloud?: CloudName): CatalogFile {
  const c = new Checker(file, 'top level');
  const o = c.object(raw, '(file)');
  const cloud = c.oneOf(o, 'cloud', CloudNames);
  if (expectedCloud && cloud !== expectedCloud) c.fail('cloud', `is ${cloud}, expected ${expectedCloud}`);
  const retrieved = c.string(o, 'retrieved');
  if (!ISO_DATE.test(retrieved)) c.fail('retrieved', `must be an ISO date (YYYY-MM-DD), got ${retrieved}`);
  const regions = c.list(o, 'regions').map((r, i) => validateRegion(r, file, i));
  const regionZones = new Map(regions.map((r) => [r.name, r.zones]));
  const flavors = c.list(o, 'flavors').map((f, i) => validateFlavor(f, file, i, regionZones));
  const seen = new Set<string>();
  for (const f of flavors) {
    if (seen.has(f.name)) new Checker(file, `flavor ${f.name}`).fail('name', 'is listed twice');
    seen.add(f.name);
  }
  const notes = o.notes === undefined ? undefined : c.strings(o, 'notes');
  const sources = c.list(o, 'sources').map((s, i) => validateSource(s, file, i));
  return { cloud, retrieved, sources, ...(notes ? { notes } : {}), regions, flavors };
}
