import { describe, expect, it } from 'vitest';
import { CloudNames } from '../../../../src/apis/v1/labels.js';
import { loadCatalog } from '../../../../src/catalog/index.js';
import {
  gpuAliasesFor,
  gpuFlavors,
  gpuModels,
  gpuNames,
  gpuNamesFor,
  gpuOfFlavor,
  normaliseGpuName,
  resolveGpuAlias,
} from '../../../../src/domain/instancetypes/gpu-mapping.js';

describe('GPU flavor mapping', () => {
  it('names every model of DESIGN.md §2', () => {
    for (const n of ['l4', 'l40s', 'h100', 'a100', 'a10', 'v100', 'v100s', 'rtx3070', 'rtx5000', 'p100']) expect(gpuNames).toContain(n);
  });

  it.each(CloudNames)('%s: the table and the bundled catalog agree flavor by flavor', (cloud) => {
    const catalog = loadCatalog(cloud);
    const catalogGpu = new Map(catalog.flavors.filter((f) => f.gpu).map((f) => [f.name, f.gpu!.name]));
    const tableGpu = new Map(gpuModels.flatMap((m) => (m.flavors[cloud] ?? []).map((f) => [f, m.name] as const)));
    expect(Object.fromEntries(tableGpu)).toEqual(Object.fromEntries(catalogGpu));
  });

  it('lists flavors smallest first', () => {
    for (const cloud of CloudNames) {
      const byName = new Map(loadCatalog(cloud).flavors.map((f) => [f.name, f]));
      for (const name of gpuNamesFor(cloud)) {
        const counts = gpuFlavors(cloud, name).map((f) => byName.get(f)!.gpu!.count);
        expect(counts).toEqual([...counts].sort((a, b) => a - b));
      }
    }
  });

  it.each([
    ['scaleway', 'l4', 'L4-1-24G'],
    ['scaleway', 'L4', 'L4-1-24G'],
    ['scaleway', 'GPU-L4-S', 'L4-1-24G'],
    ['scaleway', 'l40s', 'L40S-1-48G'],
    ['scaleway', '3070', 'GPU-3070-S'],
    ['scaleway', 'render', 'RENDER-S'],
    ['scaleway', 'h100', 'H100-1-80G'],
    ['scaleway', 'L4-2-24G', 'L4-2-24G'],
    ['ovhcloud', 'l4', 'l4-90'],
    ['ovhcloud', 'nvidia-h100', 'h100-380'],
    ['ovhcloud', 'v100', 't1-45'],
    ['ovhcloud', 'Tesla V100S', 't2-45'],
    ['ovhcloud', 'rtx5000', 'rtx5000-28'],
    ['outscale', 'a100', 'tinav6.c16r128p1-a100'],
    ['outscale', 'nvidia-l40', 'tinav7.c16r128p1-l40'],
  ] as const)('%s: alias %s → %s', (cloud, alias, flavor) => expect(resolveGpuAlias(cloud, alias)).toBe(flavor));

  it.each([
    ['scaleway', 'a100'],
    ['ovhcloud', '3070'],
    ['outscale', 'l4'],
    ['scaleway', 'nonsense'],
  ] as const)('%s: alias %s resolves to nothing', (cloud, alias) => expect(resolveGpuAlias(cloud, alias)).toBeUndefined());

  it('normalises cloud spellings', () => {
    expect(normaliseGpuName('NVIDIA L4')).toBe('l4');
    expect(normaliseGpuName('nvidia-a100-80')).toBe('a100');
    expect(normaliseGpuName('RTX 3070')).toBe('rtx3070');
    expect(normaliseGpuName('Quadro RTX 5000')).toBe('rtx5000');
    expect(normaliseGpuName('k80')).toBeUndefined();
  });

  it('every alias of a cloud resolves to a flavor of that cloud', () => {
    for (const cloud of CloudNames) {
      const names = new Set(loadCatalog(cloud).flavors.map((f) => f.name));
      for (const [alias, flavor] of Object.entries(gpuAliasesFor(cloud))) {
        expect(names.has(flavor)).toBe(true);
        expect(resolveGpuAlias(cloud, alias)).toBe(flavor);
        expect(gpuOfFlavor(cloud, flavor)).toBeDefined();
      }
    }
  });
});
