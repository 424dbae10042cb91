/**
 * The Scaleway Instance (+ Block) API emulator on loopback, speaking the real wire format so
 * `@scaleway/sdk-instance` / `@scaleway/sdk-block` work against it unchanged.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CatalogFile } from '../../../catalog/types.js';
import { SystemClock, type Clock } from '../../../util/clock.js';
import { CallLog, FaultInjector, type Fault } from '../faults.js';
import { loadBundledScalewayCatalog } from './bundled-catalog.js';
import type { EmulatorContext, ScalewayCredential } from './context.js';
import { IdGenerator } from './ids.js';
import { DEFAULT_TIMINGS, type LifecycleTimings } from './lifecycle.js';
import { AvailabilityBoard, zoneCatalogs } from './products.js';
import type { Availability } from './records.js';
import { handleRequest } from './request-pipeline.js';
import { snapshotOf, type ScalewayEmulatorState } from './snapshot.js';
import { ScalewayStore } from './store.js';

export interface ScalewayEmulatorOptions {
  clock?: Clock;
  /** Seeds server/volume ids and fault randomness (default 42). */
  seed?: number;
  /** Default: the bundled catalog (`loadCatalog('scaleway')`). */
  catalog?: CatalogFile;
  /** API keys accepted; default: one generated key, exposed as `emulator.credentials`. */
  credentials?: ScalewayCredential[];
  /** Durations of `starting`, `stopping` and reboots. */
  timings?: Partial<LifecycleTimings>;
  /** A new server stays invisible to reads for this long (eventual consistency). Default 0. */
  consistencyDelayMs?: number;
  /** Max servers per commercial type and project. */
  quotas?: Record<string, number>;
  availability?: { commercialType: string; zone: string; availability: Availability }[];
  /** Root volume size when a create gives no volumes (default 10 GB, SBS). */
  defaultRootVolumeBytes?: number;
}

export interface ScalewayEmulator {
  /** Base URL, e.g. `http://127.0.0.1:41234` (no trailing slash, as the SDK requires). */
  url: string;
  port: number;
  /**
   * Fault rules match `action` against the route's name (`createServer`, `listServers`, `getServer`,
   * `deleteServer`, `setServerUserData`, `deleteVolume`…) or, for `…/action`, the power action itself
   * (`poweron`, `poweroff`, `terminate`, `reboot`). Capacity faults hit createServer and poweron.
   */
  faults: FaultInjector;
  calls: CallLog;
  /** The first accepted API key (the generated one unless `options.credentials` was given). */
  credentials: ScalewayCredential;
  zones: string[];
  state(): ScalewayEmulatorState;
  setAvailability(commercialType: string, zone: string, availability: Availability): void;
  setQuota(commercialType: string, max: number | undefined): void;
  setConsistencyDelay(ms: number): void;
  /**
   * "Create succeeds, follow-up step fails": the next `times` poweron actions (optionally of one commercial
   * type) fail with `fault` (default out-of-stock). Returns the fault rule id for `faults.remove`.
   */
  failPowerOn(options?: { times?: number; commercialType?: string; fault?: Fault }): number;
  close(): Promise<void>;
}

const OUT_OF_STOCK: Fault = { kind: 'out-of-stock' };

function generatedCredential(ids: IdGenerator): ScalewayCredential {
  return { accessKey: ids.accessKey(), secretKey: ids.uuid(), projectId: ids.uuid(), organizationId: ids.uuid() };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

export async function startScalewayEmulator(options: ScalewayEmulatorOptions = {}): Promise<ScalewayEmulator> {
  const seed = options.seed ?? 42;
  const ids = new IdGenerator(seed);
  const catalog = options.catalog ?? (await loadBundledScalewayCatalog());
  const credentials = options.credentials?.length ? options.credentials : [generatedCredential(ids)];
  const availability = new AvailabilityBoard();
  for (const a of options.availability ?? []) availability.set(a.commercialType, a.zone, a.availability);
  const emu: EmulatorContext = {
    store: new ScalewayStore(ids, { ...DEFAULT_TIMINGS, ...options.timings }),
    ids,
    clock: options.clock ?? new SystemClock(),
    zones: zoneCatalogs(catalog),
    availability,
    settings: {
      consistencyDelayMs: options.consistencyDelayMs ?? 0,
      quotas: new Map(Object.entries(options.quotas ?? {})),
      defaultRootVolumeBytes: options.defaultRootVolumeBytes ?? 10_000_000_000,
    },
  };
  const faults = new FaultInjector(seed);
  const calls = new CallLog();
  const closing = new AbortController();
  const deps = { emu, faults, calls, credentials, closing: closing.signal };
  const server = createServer((req, res) => void handleRequest(deps, req, res));
  const port = await listen(server);

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    faults,
    calls,
    credentials: credentials[0] as ScalewayCredential,
    zones: [...emu.zones.keys()],
    state: () => snapshotOf(emu.store, emu.clock.now()),
    setAvailability: (type, zone, value) => availability.set(type, zone, value),
    setQuota: (type, max) => (max === undefined ? emu.settings.quotas.delete(type) : emu.settings.quotas.set(type, max)),
    setConsistencyDelay: (ms) => {
      emu.settings.consistencyDelayMs = ms;
    },
    failPowerOn: ({ times = 1, commercialType, fault = OUT_OF_STOCK } = {}) =>
      faults.add({ match: { method: 'POST', action: 'poweron', instanceType: commercialType }, fault, times }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        closing.abort(new Error('emulator closing'));
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
