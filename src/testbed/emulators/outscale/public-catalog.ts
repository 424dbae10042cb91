/**
 * ReadPublicCatalog entries derived from the bundled catalog. Outscale prices a VM as
 * `X × CustomCore:vW-pZ + Y × CustomRam (+ GPUs)` (osc-cost `parse_prices`); the bundled catalog carries
 * whole-flavor prices, so the unit prices are recovered by least squares: one core price per
 * (generation, performance) and one RAM price, fitted on every priced tina flavor. GPU unit prices are what a
 * GPU flavor costs beyond its cores and RAM, per GPU. Flavors without a price contribute nothing.
 */
import type { CatalogFile } from '../../../catalog/types.js';
import { PERFORMANCE_DIGIT, parseTinaType } from './vm-types.js';

export interface PublicCatalogEntry {
  Service: string;
  Type: string;
  Operation: string;
  Category: string;
  Flags: string;
  SubregionName: string;
  Title: string;
  UnitPrice: number;
}

interface PricedSample {
  group: string;
  vcores: number;
  ramGiB: number;
  hourly: number;
}

function hourlyIn(flavor: CatalogFile['flavors'][number], region: string): number | null {
  const price = flavor.prices.find((p) => p.region === region) ?? flavor.prices.find((p) => p.region === '*');
  return price?.hourly ?? null;
}

/** Solves A x = b (small, dense) with partial pivoting; a tiny ridge keeps collinear groups solvable. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row.map((v, j) => v + (i === j ? 1e-9 : 0)), b[i] as number]);
  for (let col = 0; col < n; col += 1) {
    let pivot = col;
    for (let r = col + 1; r < n; r += 1) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    const p = m[col]![col]!;
    if (Math.abs(p) < 1e-15) continue;
    for (let r = 0; r < n; r += 1) {
      if (r === col) continue;
      const f = m[r]![col]! / p;
      for (let c = col; c <= n; c += 1) m[r]![c]! -= f * m[col]![c]!;
    }
  }
  return m.map((row, i) => (Math.abs(row[i]!) < 1e-15 ? 0 : row[n]! / row[i]!));
}

/** Least-squares unit prices: index 0 is RAM per GiB, then one per group. */
function fitUnitPrices(samples: PricedSample[], groups: string[]): { ram: number; core: Map<string, number> } {
  const n = groups.length + 1;
  const ata = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const atb = new Array<number>(n).fill(0);
  for (const s of samples) {
    const row = new Array<number>(n).fill(0);
    row[0] = s.ramGiB;
    row[groups.indexOf(s.group) + 1] = s.vcores;
    for (let i = 0; i < n; i += 1) {
      atb[i]! += row[i]! * s.hourly;
      for (let j = 0; j < n; j += 1) ata[i]![j]! += row[i]! * row[j]!;
    }
  }
  const x = solve(ata, atb);
  return { ram: x[0] ?? 0, core: new Map(groups.map((g, i) => [g, x[i + 1] ?? 0])) };
}

const round = (v: number): number => Math.round(v * 1e6) / 1e6;

function entry(type: string, operation: string, subregion: string, title: string, price: number): PublicCatalogEntry {
  return {
    Service: 'TinaOS-FCU',
    Type: type,
    Operation: operation,
    Category: 'compute',
    Flags: '',
    SubregionName: subregion,
    Title: title,
    UnitPrice: round(price),
  };
}

export function publicCatalogEntries(catalog: CatalogFile, region: string): PublicCatalogEntry[] {
  const samples: PricedSample[] = [];
  const gpuFlavors: { model: string; count: number; group: string; vcores: number; ramGiB: number; hourly: number }[] = [];
  for (const flavor of catalog.flavors) {
    // GPU flavors may carry a suffix after the tina type (`tinav5.c8r32p1-a100`).
    const tina = parseTinaType(flavor.name) ?? parseTinaType(flavor.name.split(/[-_+]/)[0] ?? '');
    const hourly = hourlyIn(flavor, region);
    if (!tina || hourly === null || !flavor.regions.includes(region)) continue;
    const group = `v${tina.generation}-p${PERFORMANCE_DIGIT[tina.performance]}`;
    const sample = { group, vcores: flavor.vcpus, ramGiB: flavor.memoryMiB / 1024, hourly };
    if (flavor.gpu) gpuFlavors.push({ ...sample, model: flavor.gpu.cloudModel ?? `nvidia-${flavor.gpu.name}`, count: flavor.gpu.count });
    else samples.push(sample);
  }
  if (samples.length === 0) return [];
  const groups = [...new Set(samples.map((s) => s.group))].sort();
  const { ram, core } = fitUnitPrices(samples, groups);
  const entries = groups.map((g) =>
    entry(
      `CustomCore:${g}`,
      'RunInstances-OD',
      region,
      `Instance - On demand - Unite de vCore pour une instance Tina ${g} - par heure`,
      core.get(g) ?? 0,
    ),
  );
  entries.push(entry('CustomRam', 'RunInstances-OD', region, 'Instance - On demand - Custom RAM - par Go de RAM par heure', ram));
  const gpuPrices = new Map<string, number>();
  for (const g of gpuFlavors) {
    const base = g.vcores * (core.get(g.group) ?? 0) + g.ramGiB * ram;
    if (!gpuPrices.has(g.model)) gpuPrices.set(g.model, Math.max(0, (g.hourly - base) / g.count));
  }
  for (const [model, price] of gpuPrices) {
    entries.push(entry(`Gpu:attach:${model}`, 'AllocateGpu', region, `Flexible GPU ${model} attached - par heure`, price));
    entries.push(entry(`Gpu:allocate:${model}`, 'AllocateGpu', region, `Flexible GPU ${model} allocated - par heure`, price));
  }
  return entries;
}
