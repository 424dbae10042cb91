/**
 * The Outscale API (OAPI v1) emulator on loopback plain HTTP, speaking the real wire format (SigV4, PascalCase,
 * `Errors[]`) so the project's signed client works against it unchanged.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CatalogFile } from '../../../catalog/types.js';
import { SystemClock, type Clock } from '../../../util/clock.js';
import { CallLog, FaultInjector, type Fault } from '../faults.js';
import { loadBundledOutscaleCatalog } from './bundled-catalog.js';
import type { EmulatorContext, OutscaleQuotas } from './context.js';
import { FLEXIBLE_GPU_MODELS } from './gpu-catalog.js';
import { IdGenerator } from './ids.js';
import { DEFAULT_TIMINGS, type LifecycleTimings } from './records.js';
import { handleRequest } from './request-pipeline.js';
import { seedNetwork, type SeededNetwork } from './seed-network.js';
import type { OscCredential } from './sigv4.js';
import { snapshotOf, type OutscaleEmulatorState } from './snapshot.js';
import { OutscaleStore } from './store.js';
import { VmTypeBook } from './vm-types.js';

export interface OutscaleEmulatorOptions {
  clock?: Clock;
  /** Seeds ids and fault randomness (default 42). */
  seed?: number;
  /** Default: the bundled catalog (`loadCatalog('outscale')`). */
  catalog?: CatalogFile;
  /** The account's region (default `eu-west-2`); it must be a region of the catalog. */
  region?: string;
  /** Access/secret key pairs accepted; default: one generated pair, exposed as `emulator.credentials`. */
  credentials?: OscCredential[];
  timings?: Partial<LifecycleTimings>;
  /** A new VM stays invisible to ReadVms for this long (eventual consistency). Default 0. */
  consistencyDelayMs?: number;
  quotas?: OutscaleQuotas;
  /** Largest accepted X-Amz-Date skew (default 15 min). */
  maxSkewMs?: number;
}

export interface OutscaleEmulator {
  /** Base URL, e.g. `http://127.0.0.1:41234`; calls go to `<url>/api/v1/<Action>`. */
  url: string;
  port: number;
  region: string;
  subregions: string[];
  /** Fault rules match `action` against the OAPI action (`CreateVms`, `CreateTags`…); capacity faults hit CreateVms and CreateFlexibleGpu. */
  faults: FaultInjector;
  calls: CallLog;
  credentials: OscCredential;
  /** Ids of the seeded subnets, security groups, images and keypair. */
  network: SeededNetwork;
  state(): OutscaleEmulatorState;
  setConsistencyDelay(ms: number): void;
  /** Short pages: listings return at most `limit` items per page (undefined: as many as asked). */
  setPageLimit(limit: number | undefined): void;
  setQuotas(quotas: OutscaleQuotas): void;
  /**
   * "CreateVms succeeds, the follow-up tagging fails": the next `times` CreateTags calls fail with `fault`
   * (default a 500). Returns the fault rule id for `faults.remove`.
   */
  failCreateTags(options?: { times?: number; fault?: Fault }): number;
  close(): Promise<void>;
}

const TAGGING_FAILURE: Fault = { kind: 'server-error', status: 500 };

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function regionOf(catalog: CatalogFile, name: string): string[] {
  const region = catalog.regions.find((r) => r.name === name);
  if (!region || region.zones.length === 0) {
    throw new Error(
      `starting the outscale emulator: region ${name} is not in the catalog; accepted: ${catalog.regions.map((r) => r.name).join(', ')}`,
    );
  }
  return [...region.zones];
}

export async function startOutscaleEmulator(options: OutscaleEmulatorOptions = {}): Promise<OutscaleEmulator> {
  const seed = options.seed ?? 42;
  const ids = new IdGenerator(seed);
  const catalog = options.catalog ?? (await loadBundledOutscaleCatalog());
  const region = options.region ?? 'eu-west-2';
  const subregions = regionOf(catalog, region);
  const credentials = options.credentials?.length ? options.credentials : [{ accessKey: ids.accessKey(), secretKey: ids.secretKey() }];
  const store = new OutscaleStore(ids, { ...DEFAULT_TIMINGS, ...options.timings });
  const network = seedNetwork(store, subregions);
  const ctx: EmulatorContext = {
    store,
    ids,
    clock: options.clock ?? new SystemClock(),
    region,
    subregions,
    catalog,
    vmTypes: new VmTypeBook(catalog),
    gpuModels: FLEXIBLE_GPU_MODELS.map((m) => ({ ...m })),
    settings: { consistencyDelayMs: options.consistencyDelayMs ?? 0, quotas: { ...options.quotas } },
  };
  const faults = new FaultInjector(seed);
  const calls = new CallLog();
  const closing = new AbortController();
  const deps = { ctx, faults, calls, credentials, maxSkewMs: options.maxSkewMs ?? 15 * 60_000, closing: closing.signal };
  const server = createServer((req, res) => void handleRequest(deps, req, res));
  const port = await listen(server);

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    region,
    subregions,
    faults,
    calls,
    credentials: credentials[0] as OscCredential,
    network,
    state: () => snapshotOf(store, ctx.clock.now()),
    setConsistencyDelay: (ms) => {
      ctx.settings.consistencyDelayMs = ms;
    },
    setPageLimit: (limit) => {
      ctx.settings.pageLimit = limit;
    },
    setQuotas: (quotas) => {
      ctx.settings.quotas = { ...quotas };
    },
    failCreateTags: ({ times = 1, fault = TAGGING_FAILURE } = {}) => faults.add({ match: { action: 'CreateTags' }, fault, times }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        closing.abort(new Error('emulator closing'));
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
