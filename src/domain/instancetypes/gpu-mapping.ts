/**
 * The GPU flavor mapping (DESIGN.md §2): one table from normalised GPU model names to each cloud's flavors,
 * with the spellings clouds and users use for them. Admission, scheduling and the catalog all read this table.
 *
 * Flavors are listed smallest first, so the first one is what a bare alias (`l4`) means.
 * Scaleway aliases `l4`, `l40s`, `3070` come from the Scaleway GPU controller users already run (which also
 * used the legacy `GPU-L4-S` name); Outscale flavors are karpenter-eu's flexible-GPU bundles
 * (`<tina type>-<model>`, src/catalog/data/outscale.json).
 */
import type { CloudName } from '../../apis/v1/labels.js';

export type GpuName = 'l4' | 'l40s' | 'l40' | 'h100' | 'a100' | 'a10' | 'v100' | 'v100s' | 'rtx3070' | 'rtx5000' | 'p100';

export interface GpuModel {
  name: GpuName;
  manufacturer: 'nvidia';
  /** Other spellings of the model (cloud APIs, marketing names), compared after normalisation. */
  spellings: readonly string[];
  flavors: Readonly<Partial<Record<CloudName, readonly string[]>>>;
  /** Short names users write for a flavor on one cloud, beyond the GPU name itself. */
  aliases?: Readonly<Partial<Record<CloudName, Readonly<Record<string, string>>>>>;
}

export const gpuModels: readonly GpuModel[] = [
  {
    name: 'l4',
    manufacturer: 'nvidia',
    spellings: ['nvidia-l4', 'nvidia l4', 'gpu-l4'],
    flavors: { ovhcloud: ['l4-90', 'l4-180', 'l4-360'], scaleway: ['L4-1-24G', 'L4-2-24G', 'L4-4-24G', 'L4-8-24G'] },
    aliases: { scaleway: { 'gpu-l4-s': 'L4-1-24G' } },
  },
  {
    name: 'l40s',
    manufacturer: 'nvidia',
    spellings: ['nvidia-l40s', 'nvidia l40s'],
    flavors: { ovhcloud: ['l40s-90', 'l40s-180', 'l40s-360'], scaleway: ['L40S-1-48G', 'L40S-2-48G', 'L40S-4-48G', 'L40S-8-48G'] },
  },
  {
    name: 'l40',
    manufacturer: 'nvidia',
    spellings: ['nvidia-l40', 'nvidia l40'],
    flavors: { outscale: ['tinav7.c16r128p1-l40', 'tinav7.c32r250p1-l40x2'] },
  },
  {
    name: 'h100',
    manufacturer: 'nvidia',
    spellings: ['nvidia-h100', 'h100-pcie', 'nvidia h100', 'h100 pcie'],
    flavors: { ovhcloud: ['h100-380', 'h100-760', 'h100-1520'], scaleway: ['H100-1-80G', 'H100-2-80G'] },
  },
  {
    name: 'a100',
    manufacturer: 'nvidia',
    spellings: ['nvidia-a100', 'nvidia-a100-80', 'nvidia a100', 'a100-80'],
    flavors: {
      ovhcloud: ['a100-180', 'a100-360', 'a100-720'],
      outscale: ['tinav6.c16r128p1-a100', 'tinav6.c16r128p1-a100-80', 'tinav6.c32r250p1-a100x2', 'tinav6.c32r256p1-a100-80x2'],
    },
  },
  {
    name: 'a10',
    manufacturer: 'nvidia',
    spellings: ['nvidia-a10', 'nvidia a10'],
    flavors: { ovhcloud: ['a10-45', 'a10-90', 'a10-180'] },
  },
  {
    name: 'v100',
    manufacturer: 'nvidia',
    spellings: ['nvidia-v100', 'tesla-v100', 'tesla v100', 'nvidia v100'],
    flavors: { ovhcloud: ['t1-45', 't1-90', 't1-180'], outscale: ['tinav5.c8r64p1-v100', 'tinav5.c16r128p1-v100x2'] },
  },
  {
    name: 'v100s',
    manufacturer: 'nvidia',
    spellings: ['nvidia-v100s', 'tesla-v100s', 'tesla v100s', 'nvidia v100s'],
    flavors: { ovhcloud: ['t2-45', 't2-90', 't2-180'] },
  },
  {
    name: 'rtx3070',
    manufacturer: 'nvidia',
    spellings: ['rtx-3070', 'rtx 3070', 'geforce rtx 3070', 'gpu-3070'],
    flavors: { scaleway: ['GPU-3070-S'] },
    aliases: { scaleway: { '3070': 'GPU-3070-S' } },
  },
  {
    name: 'rtx5000',
    manufacturer: 'nvidia',
    spellings: ['rtx-5000', 'rtx 5000', 'quadro rtx 5000', 'quadro-rtx-5000'],
    flavors: { ovhcloud: ['rtx5000-28', 'rtx5000-56', 'rtx5000-84'] },
  },
  {
    name: 'p100',
    manufacturer: 'nvidia',
    spellings: ['nvidia-p100', 'tesla-p100', 'tesla p100', 'nvidia p100'],
    flavors: { scaleway: ['RENDER-S'] },
    aliases: { scaleway: { render: 'RENDER-S', 'render-s': 'RENDER-S' } },
  },
];

export const gpuNames: readonly GpuName[] = gpuModels.map((m) => m.name);

const normalise = (s: string): string =>
  s
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, ' ');

/** The normalised model name for a spelling (`NVIDIA L4`, `nvidia-a100-80`, `Tesla V100S`), if known. */
export function normaliseGpuName(spelling: string): GpuName | undefined {
  const s = normalise(spelling);
  return gpuModels.find((m) => m.name === s || m.spellings.some((alt) => normalise(alt) === s))?.name;
}

export function gpuModel(name: GpuName): GpuModel {
  const model = gpuModels.find((m) => m.name === name);
  if (!model) throw new Error(`looking up gpu model: unknown name "${name}"; accepted: ${gpuNames.join(', ')}`);
  return model;
}

/** Every flavor of a cloud carrying this GPU model, smallest first. */
export function gpuFlavors(cloud: CloudName, name: GpuName): readonly string[] {
  return gpuModel(name).flavors[cloud] ?? [];
}

/** GPU model names offered by a cloud (any region). */
export function gpuNamesFor(cloud: CloudName): GpuName[] {
  return gpuModels.filter((m) => (m.flavors[cloud] ?? []).length > 0).map((m) => m.name);
}

/** The GPU model a cloud flavor carries, if it is in the table. */
export function gpuOfFlavor(cloud: CloudName, flavor: string): GpuName | undefined {
  return gpuModels.find((m) => (m.flavors[cloud] ?? []).includes(flavor))?.name;
}

/**
 * The flavor a user-written alias means on a cloud: an exact flavor name of the table, a cloud alias
 * (`3070`, `render`, legacy `GPU-L4-S`), or a GPU model spelling (`l4`, `nvidia-l4`) meaning its smallest
 * flavor. Case-insensitive. Undefined when the cloud has no such GPU.
 */
export function resolveGpuAlias(cloud: CloudName, alias: string): string | undefined {
  const wanted = normalise(alias);
  for (const m of gpuModels) {
    const exact = (m.flavors[cloud] ?? []).find((f) => normalise(f) === wanted);
    if (exact) return exact;
  }
  for (const m of gpuModels) {
    const aliased = Object.entries(m.aliases?.[cloud] ?? {}).find(([a]) => normalise(a) === wanted);
    if (aliased) return aliased[1];
  }
  const name = normaliseGpuName(alias);
  return name ? gpuFlavors(cloud, name)[0] : undefined;
}

/** Every alias a cloud accepts, with the flavor it resolves to (for error messages and docs). */
export function gpuAliasesFor(cloud: CloudName): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of gpuModels) {
    const first = m.flavors[cloud]?.[0];
    if (first) out[m.name] = first;
    Object.assign(out, m.aliases?.[cloud] ?? {});
  }
  return out;
}
