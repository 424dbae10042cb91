/**
 * The Scaleway Instances provider's composition: `createScalewayCloudProvider(deps)` builds its accounts,
 * product cache and retry policy and returns the CloudProvider. The composition root passes a client
 * from `createScalewayClient` (or any `ScalewayApi`).
 */
import type { ScalewayNodeClass } from '../../apis/v1alpha1/scaleway-nodeclass.js';
import { findRegion } from '../../domain/instancetypes/build.js';
import type { CatalogFile } from '../../catalog/types.js';
import type { BackoffPolicy, RandomSource } from '../../util/backoff.js';
import type { Clock } from '../../util/clock.js';
import { DefaultCloudRetryPolicy, type RetryOptions } from '../retry.js';
import type { NodeClassResolver } from '../types.js';
import type { UnavailableOfferings } from '../unavailable-offerings.js';
import { ScalewayAccounts, type ScalewayApiFactory } from './accounts.js';
import type { ScalewayApi } from './api.js';
import { ScalewayCloudProvider, type RecordCreateAttempt } from './cloudprovider.js';
import { DefaultListingConsistencyWindowMs } from './create-window.js';
import { ScalewayProducts } from './products.js';

export interface ScalewayCloudProviderDeps {
  /** Tags every server (`karpenter-eu.io/cluster=<name>`); list() finds the cluster's servers by it. */
  clusterName: string;
  /** `fr-par`, `nl-ams`, `pl-waw`. */
  region: string;
  /** The region's zones; default: the catalog's. */
  zones?: readonly string[];
  /** The bundled Scaleway catalog (names families and GPUs the API does not). */
  catalog: CatalogFile;
  /** The operator-wide account. */
  api: ScalewayApi;
  /** Clients for NodeClasses with their own `credentialsSecretRef`. */
  apiFactory?: ScalewayApiFactory;
  nodeClasses: NodeClassResolver<ScalewayNodeClass>;
  unavailableOfferings: UnavailableOfferings;
  clock: Clock;
  /** Jitter source for retries; default Math.random. */
  random?: RandomSource;
  retryPolicy?: BackoffPolicy;
  /** Servers per listing page (default 100, the API's maximum). */
  listPageSize?: number;
  /** Writes a create attempt's instant on the NodeClaim before the create is sent. */
  recordCreateAttempt: RecordCreateAttempt;
  /** How long a listing that misses a server is no proof after a create of unknown outcome; default `DefaultListingConsistencyWindowMs`. */
  listingWindowMs?: number;
}

export function createScalewayCloudProvider(deps: ScalewayCloudProviderDeps): ScalewayCloudProvider {
  const zones = deps.zones ?? findRegion(deps.catalog, deps.region).zones;
  const retry: RetryOptions = {
    clock: deps.clock,
    random: deps.random ?? Math.random,
    policy: deps.retryPolicy ?? DefaultCloudRetryPolicy,
  };
  const accounts = new ScalewayAccounts({
    api: deps.api,
    nodeClasses: deps.nodeClasses,
    retry,
    ...(deps.apiFactory ? { apiFactory: deps.apiFactory } : {}),
    ...(deps.listPageSize ? { listPageSize: deps.listPageSize } : {}),
  });
  const products = new ScalewayProducts({ api: deps.api, catalog: deps.catalog, region: deps.region, zones, clock: deps.clock, retry });
  return new ScalewayCloudProvider({
    clusterName: deps.clusterName,
    region: deps.region,
    zones,
    accounts,
    products,
    nodeClasses: deps.nodeClasses,
    unavailableOfferings: deps.unavailableOfferings,
    clock: deps.clock,
    listingWindowMs: deps.listingWindowMs ?? DefaultListingConsistencyWindowMs,
    recordCreateAttempt: deps.recordCreateAttempt,
  });
}

export { ScalewayCloudProvider, type RecordCreateAttempt } from './cloudprovider.js';
export { AnnotationCreateAttempted, DefaultListingConsistencyWindowMs } from './create-window.js';
export { createScalewayClient, DefaultScalewayApiUrl, type ScalewayClientSettings } from './client.js';
export { type ScalewayApi, ScalewayApiCalls } from './api.js';
export type { ScalewayApiFactory, ScalewayCredentials } from './accounts.js';
export { formatProviderID, parseProviderID } from './provider-id.js';
