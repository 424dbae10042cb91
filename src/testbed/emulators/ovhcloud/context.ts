/** What handlers receive: the emulator's shared state and the parsed request. */
import type { CatalogFile, CatalogFlavor } from '../../../catalog/types.js';
import type { Clock } from '../../../util/clock.js';
import type { Fault } from '../faults.js';
import type { Reply } from './http-io.js';
import type { IdGenerator } from './ids.js';
import type { ClusterRecord } from './records.js';
import type { OvhStore } from './store.js';

/** An API key triple the emulator accepts (what api.ovh.com/createToken issues). */
export interface OvhCredential {
  applicationKey: string;
  applicationSecret: string;
  consumerKey: string;
}

/** Caps of the Public Cloud project: launches beyond them fail with USER_QUOTA_ERROR. */
export interface ProjectQuota {
  instances?: number;
  vCPUs?: number;
}

/** Knobs tests may change while the emulator runs. */
export interface MutableSettings {
  /** A new pool answers 404 and is absent from lists for this long (eventual consistency). */
  consistencyDelayMs: number;
  /** The next pools created do not list their nodes for a while: one entry (ms) per pool, consumed in order. */
  pendingNodeListingDelays: number[];
  /** Max live nodes per cluster (MKS known limit: 100). */
  maxNodesPerCluster: number;
  /** Max nodes in an anti-affinity pool (MKS known limit: 5). */
  maxAntiAffinityNodes: number;
  quota: ProjectQuota;
  /** `flavor` or `flavor@region` names the flavor API reports as `unavailable`. */
  unavailableFlavors: Set<string>;
  /** Accepted distance between X-Ovh-Timestamp and the API's clock. */
  maxClockSkewSeconds: number;
}

export interface EmulatorContext {
  store: OvhStore;
  ids: IdGenerator;
  clock: Clock;
  catalog: CatalogFile;
  flavorsByName: Map<string, CatalogFlavor>;
  settings: MutableSettings;
}

export interface RequestContext {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  rawBody: string;
  now: number;
  /** A capacity fault the injector chose for this launching request (rendered as node statuses). */
  fault?: Fault;
}

export type Handler = (emu: EmulatorContext, req: RequestContext) => Reply;

export function zonesOfRegion(catalog: CatalogFile, region: string): string[] {
  return catalog.regions.find((r) => r.name === region)?.zones ?? [];
}

export function isFlavorOffered(flavor: CatalogFlavor, cluster: ClusterRecord): boolean {
  return flavor.regions.includes(cluster.region);
}
