/**
 * VM types as the emulated cloud knows them: the `tinavW.cXrYpZ` grammar (osc-cost's regex; `tinavW.cXrY`
 * means high performance), the types listed by ReadVmTypes (from the catalog), and which names CreateVms
 * accepts (any well-formed tina type of a known generation within the cloud's limits, like the real API).
 */
import type { CatalogFile } from '../../../catalog/types.js';

export type PerformanceName = 'medium' | 'high' | 'highest';

export interface TinaType {
  generation: number;
  vcores: number;
  ramGiB: number;
  performance: PerformanceName;
  /** True when the name carried `pN`; then the request's Performance is ignored. */
  explicitPerformance: boolean;
}

const TINA_RE = /^tinav(\d+)\.c(\d+)r(\d+)(p(\d+))?$/;
const PERFORMANCE_BY_DIGIT: Record<string, PerformanceName> = { '1': 'highest', '2': 'high', '3': 'medium' };
export const PERFORMANCE_DIGIT: Record<PerformanceName, number> = { highest: 1, high: 2, medium: 3 };

/** Limits of a custom tina VM. */
const MAX_VCORES = 80;
const MAX_RAM_GIB = 1039;

export function parseTinaType(name: string): TinaType | undefined {
  const m = TINA_RE.exec(name);
  if (!m) return undefined;
  const digit = m[5];
  const performance = digit === undefined ? 'high' : PERFORMANCE_BY_DIGIT[digit];
  if (!performance) return undefined;
  return { generation: Number(m[1]), vcores: Number(m[2]), ramGiB: Number(m[3]), performance, explicitPerformance: digit !== undefined };
}

export interface VmTypeInfo {
  name: string;
  vcores: number;
  ramGiB: number;
  gpus: number;
  generation?: number;
}

/** The default of CreateVms when VmType is absent. */
export const DEFAULT_VM_TYPE = 't2.small';
const AWS_COMPAT: Record<string, VmTypeInfo> = { 't2.small': { name: 't2.small', vcores: 1, ramGiB: 2, gpus: 0, generation: 3 } };

export class VmTypeBook {
  readonly listed: VmTypeInfo[];
  private readonly generations: Set<number>;

  constructor(catalog: CatalogFile) {
    this.listed = catalog.flavors.map((f) => ({
      name: f.name,
      vcores: f.vcpus,
      ramGiB: Math.round(f.memoryMiB / 1024),
      gpus: f.gpu?.count ?? 0,
      generation: parseTinaType(f.name)?.generation,
    }));
    this.generations = new Set(this.listed.map((t) => t.generation).filter((g): g is number => g !== undefined));
  }

  /** The VM type CreateVms would launch for this name, or undefined when the API would refuse it. */
  resolve(name: string): VmTypeInfo | undefined {
    const listed = this.listed.find((t) => t.name === name) ?? AWS_COMPAT[name];
    if (listed) return listed;
    const tina = parseTinaType(name);
    if (!tina || !this.generations.has(tina.generation)) return undefined;
    if (tina.vcores < 1 || tina.vcores > MAX_VCORES || tina.ramGiB < 1 || tina.ramGiB > MAX_RAM_GIB) return undefined;
    return { name, vcores: tina.vcores, ramGiB: tina.ramGiB, gpus: 0, generation: tina.generation };
  }

  knownGenerations(): number[] {
    return [...this.generations].sort((a, b) => a - b);
  }
}
