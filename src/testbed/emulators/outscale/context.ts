/** What every handler of the emulated OAPI works with. */
import type { CatalogFile } from '../../../catalog/types.js';
import type { Clock } from '../../../util/clock.js';
import type { FlexibleGpuModel } from './gpu-catalog.js';
import type { IdGenerator } from './ids.js';
import type { OutscaleStore } from './store.js';
import type { VmTypeBook } from './vm-types.js';

export interface OutscaleQuotas {
  /** Max VMs not terminated (code 10010). */
  maxVms?: number;
  /** Max vCores over VMs not terminated (code 10029). */
  maxCores?: number;
  /** Max flexible GPUs (code 10030). */
  maxGpus?: number;
}

export interface EmulatorSettings {
  consistencyDelayMs: number;
  /** The most items a listing returns per page, whatever ResultsPerPage asks (the rest follow NextPageToken). */
  pageLimit?: number;
  quotas: OutscaleQuotas;
}

export interface EmulatorContext {
  store: OutscaleStore;
  ids: IdGenerator;
  clock: Clock;
  region: string;
  subregions: string[];
  catalog: CatalogFile;
  vmTypes: VmTypeBook;
  gpuModels: FlexibleGpuModel[];
  settings: EmulatorSettings;
}

/** A handler gets the parsed body and returns the response without ResponseContext (the pipeline adds it). */
export type ActionHandler = (ctx: EmulatorContext, body: Record<string, unknown>) => Record<string, unknown>;
