/**
 * The OVHcloud API emulator (MKS node pools + public order catalog) on loopback HTTPS, speaking the real
 * wire format so the OVH npm client (`@ovhcloud/node-ovh`) works against it unchanged: `GET /1.0/auth/time`, `X-Ovh-*`
 * signatures checked, 200 for every success. The certificate comes from a CA generated at start; clients
 * trust `caPem` (the `ovh` client has no CA option: set `https.globalAgent.options.ca`).
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { CatalogFile } from '../../../catalog/types.js';
import { SystemClock, type Clock } from '../../../util/clock.js';
import { createLoopbackCertificate } from '../../../util/tls.js';
import { CallLog, FaultInjector } from '../faults.js';
import { loadBundledOvhCatalog } from './bundled-catalog.js';
import { zonesOfRegion, type EmulatorContext, type OvhCredential, type ProjectQuota } from './context.js';
import { IdGenerator } from './ids.js';
import { DEFAULT_TIMINGS, type OvhTimings } from './lifecycle.js';
import type { ClusterRecord } from './records.js';
import { handleRequest } from './request-pipeline.js';
import { snapshotOf, type OvhEmulatorState } from './snapshot.js';
import { OvhStore } from './store.js';

export interface OvhClusterSpec {
  serviceName?: string;
  kubeId?: string;
  /** A region of the catalog; default `EU-WEST-PAR` (three zones). */
  region?: string;
  name?: string;
  version?: string;
}

export interface OvhcloudEmulatorOptions {
  clock?: Clock;
  /** Seeds ids, generated keys and fault randomness (default 42). */
  seed?: number;
  /** Default: the bundled catalog (`loadCatalog('ovhcloud')`). */
  catalog?: CatalogFile;
  /** Key triples accepted; default: one generated triple, exposed as `emulator.credentials`. */
  credentials?: OvhCredential[];
  /** MKS clusters; default one cluster in EU-WEST-PAR. */
  clusters?: OvhClusterSpec[];
  timings?: Partial<OvhTimings>;
  /** A new pool answers 404 and is absent from lists for this long (eventual consistency). Default 0. */
  consistencyDelayMs?: number;
  /** Default 100 (MKS known limits). */
  maxNodesPerCluster?: number;
  /** Default 5 (MKS known limits). */
  maxAntiAffinityNodes?: number;
  quota?: ProjectQuota;
  /** `flavor` or `flavor@REGION` entries the flavor API reports as `unavailable`. */
  unavailableFlavors?: string[];
  /** Accepted distance between X-Ovh-Timestamp and the emulator's clock (default 180 s). */
  maxClockSkewSeconds?: number;
}

export interface OvhClusterInfo {
  serviceName: string;
  kubeId: string;
  region: string;
  zones: string[];
}

export interface OvhcloudEmulator {
  /** `https://127.0.0.1:<port>` (the API is under `/1.0`). */
  url: string;
  host: '127.0.0.1';
  port: number;
  /** The CA that signed the serving certificate. */
  caPem: string;
  /**
   * Fault rules match `action` against the route's name (`createNodePool`, `updateNodePool`,
   * `listNodePoolNodes`, `getNodePool`, `deleteNode`, `getAuthTime`…). Capacity faults hit pool creates
   * and PUTs that raise desiredNodes, and show as node statuses (FLAVOR_OUT_OF_STOCK_ERROR, USER_QUOTA_ERROR).
   */
  faults: FaultInjector;
  calls: CallLog;
  credentials: OvhCredential;
  /** The first cluster. */
  cluster: OvhClusterInfo;
  clusters: OvhClusterInfo[];
  /** `{appKey, appSecret, consumerKey, host, port}` for `require('@ovhcloud/node-ovh')(…)`. */
  clientOptions(credential?: OvhCredential): { appKey: string; appSecret: string; consumerKey: string; host: string; port: number };
  state(): OvhEmulatorState;
  setConsistencyDelay(ms: number): void;
  /** "Pool created but not listing nodes for a while": the next `times` pools created hide their nodes for `ms`. */
  delayNodeListing(ms: number, times?: number): void;
  /** Pool creates / scale-ups of this flavor (in this zone) get FLAVOR_OUT_OF_STOCK_ERROR nodes. Returns the rule id. */
  setOutOfStock(flavor: string, zone?: string, times?: number): number;
  setQuota(quota: ProjectQuota): void;
  setFlavorAvailable(flavor: string, available: boolean, region?: string): void;
  close(): Promise<void>;
}

function generatedCredential(ids: IdGenerator): OvhCredential {
  return { applicationKey: ids.key(16), applicationSecret: ids.key(32), consumerKey: ids.key(32) };
}

function buildCluster(ids: IdGenerator, catalog: CatalogFile, spec: OvhClusterSpec, now: number): ClusterRecord {
  const region = spec.region ?? 'EU-WEST-PAR';
  const zones = zonesOfRegion(catalog, region);
  if (zones.length === 0) {
    throw new Error(
      `starting ovhcloud emulator: region "${region}" is not in the catalog; accepted: ${catalog.regions.map((r) => r.name).join(', ')}`,
    );
  }
  return {
    id: spec.kubeId ?? ids.uuid(),
    serviceName: spec.serviceName ?? ids.serviceName(),
    name: spec.name ?? 'karpenter-eu',
    region,
    zones,
    version: spec.version ?? '1.31',
    createdAt: now,
  };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

export async function startOvhcloudEmulator(options: OvhcloudEmulatorOptions = {}): Promise<OvhcloudEmulator> {
  const seed = options.seed ?? 42;
  const ids = new IdGenerator(seed);
  const clock = options.clock ?? new SystemClock();
  const catalog = options.catalog ?? (await loadBundledOvhCatalog());
  const credentials = options.credentials?.length ? options.credentials : [generatedCredential(ids)];
  const store = new OvhStore(ids, { ...DEFAULT_TIMINGS, ...options.timings });
  for (const spec of options.clusters?.length ? options.clusters : [{}]) {
    const cluster = buildCluster(ids, catalog, spec, clock.now());
    store.clusters.set(cluster.id, cluster);
  }
  const emu: EmulatorContext = {
    store,
    ids,
    clock,
    catalog,
    flavorsByName: new Map(catalog.flavors.map((f) => [f.name, f])),
    settings: {
      consistencyDelayMs: options.consistencyDelayMs ?? 0,
      pendingNodeListingDelays: [],
      maxNodesPerCluster: options.maxNodesPerCluster ?? 100,
      maxAntiAffinityNodes: options.maxAntiAffinityNodes ?? 5,
      quota: { ...options.quota },
      unavailableFlavors: new Set(options.unavailableFlavors ?? []),
      maxClockSkewSeconds: options.maxClockSkewSeconds ?? 180,
    },
  };
  const faults = new FaultInjector(seed);
  const calls = new CallLog();
  const closing = new AbortController();
  const tls = await createLoopbackCertificate();
  const server = createServer(
    { key: tls.keyPem, cert: tls.certPem },
    (req, res) => void handleRequest({ emu, faults, calls, credentials, closing: closing.signal }, req, res),
  );
  const port = await listen(server);
  const clusters = [...store.clusters.values()].map((c) => ({
    serviceName: c.serviceName,
    kubeId: c.id,
    region: c.region,
    zones: [...c.zones],
  }));
  const first = credentials[0] as OvhCredential;

  return {
    url: `https://127.0.0.1:${port}`,
    host: '127.0.0.1',
    port,
    caPem: tls.caPem,
    faults,
    calls,
    credentials: first,
    cluster: clusters[0] as OvhClusterInfo,
    clusters,
    clientOptions: (c = first) => ({
      appKey: c.applicationKey,
      appSecret: c.applicationSecret,
      consumerKey: c.consumerKey,
      host: '127.0.0.1',
      port,
    }),
    state: () => snapshotOf(store, clock.now()),
    setConsistencyDelay: (ms) => {
      emu.settings.consistencyDelayMs = ms;
    },
    delayNodeListing: (ms, times = 1) => {
      for (let i = 0; i < times; i++) emu.settings.pendingNodeListingDelays.push(ms);
    },
    setOutOfStock: (flavor, zone, times) => faults.add({ match: { instanceType: flavor, zone }, fault: { kind: 'out-of-stock' }, times }),
    setQuota: (quota) => {
      emu.settings.quota = { ...quota };
    },
    setFlavorAvailable: (flavor, available, region) => {
      const key = region ? `${flavor}@${region}` : flavor;
      if (available) emu.settings.unavailableFlavors.delete(key);
      else emu.settings.unavailableFlavors.add(key);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        closing.abort(new Error('emulator closing'));
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
