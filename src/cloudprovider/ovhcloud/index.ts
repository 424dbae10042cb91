/**
 * The OVHcloud MKS provider's composition: `createOvhCloudProvider(deps)` builds its accounts, catalog
 * cache and retry policy and returns the CloudProvider. The composition root passes a client from
 * `createOvhClient` (or any `OvhApi`), configured from the service's settings or environment
 * (`ovhClientSettingsFromEnv`), and an `apiFactory` for NodeClasses with their own `credentialsSecretRef`.
 *
 * The NodeClaim → node pool mapping, the minimum API rights and the known limits are in README.md.
 */
import type { OVHNodeClass } from '../../apis/v1alpha1/ovh-nodeclass.js';
import type { CatalogFile } from '../../catalog/types.js';
import type { BackoffPolicy, RandomSource } from '../../util/backoff.js';
import type { Clock } from '../../util/clock.js';
import { DefaultCloudRetryPolicy, type RetryOptions } from '../retry.js';
import type { NodeClassResolver } from '../types.js';
import type { UnavailableOfferings } from '../unavailable-offerings.js';
import { OvhAccounts, type OvhApiFactory } from './accounts.js';
import type { OvhApi } from './api.js';
import { createCaller } from './calls.js';
import { OvhCatalogCache } from './catalog-cache.js';
import type { OvhClientSettings } from './client.js';
import { OvhCloudProvider } from './cloud-provider.js';
import { DefaultEmptyPoolGraceMs } from './pool-cleanup.js';

export interface OvhCloudProviderDeps {
  /** The operator-wide account. */
  api: OvhApi;
  /** This Kubernetes cluster's name: it labels every node pool created, and only such pools are ours. */
  clusterName: string;
  /** Clients for NodeClasses with their own `credentialsSecretRef`. */
  apiFactory?: OvhApiFactory;
  nodeClasses: NodeClassResolver<OVHNodeClass>;
  /** The bundled OVHcloud catalog: names families and GPUs, and answers when the cloud cannot be read. */
  catalog: CatalogFile;
  unavailableOfferings: UnavailableOfferings;
  clock: Clock;
  /** Operator-wide defaults for NodeClasses that leave them unset; `region` is detected when unset. */
  serviceName?: string;
  kubeId?: string;
  region?: string;
  /** This cluster's Nodes' providerIDs, to detect the MKS cluster when no kubeId is given. */
  clusterProviderIDs?: () => readonly string[];
  random?: RandomSource;
  retryPolicy?: BackoffPolicy;
  /** How often a launching pool is read (default 5 s). */
  pollIntervalMs?: number;
  /** How long a node may take to get an instance (default 20 min: MKS GPU nodes are slow). */
  launchTimeoutMs?: number;
  /** Flavor and price cache TTL (default 5 min). */
  catalogTTLMs?: number;
  /** How long an empty pool is kept before deletion (default 10 min). */
  emptyPoolGraceMs?: number;
  /** MKS known limit: 5. */
  maxAntiAffinityNodes?: number;
  onWarning?: (message: string, fields: Record<string, unknown>) => void;
}

export function createOvhCloudProvider(deps: OvhCloudProviderDeps): OvhCloudProvider {
  const retry: RetryOptions = {
    clock: deps.clock,
    random: deps.random ?? Math.random,
    policy: deps.retryPolicy ?? DefaultCloudRetryPolicy,
  };
  const call = createCaller(retry);
  const accounts = new OvhAccounts({
    api: deps.api,
    nodeClasses: deps.nodeClasses,
    ...(deps.apiFactory ? { apiFactory: deps.apiFactory } : {}),
    ...(deps.serviceName ? { serviceName: deps.serviceName } : {}),
    ...(deps.kubeId ? { kubeId: deps.kubeId } : {}),
    ...(deps.region ? { region: deps.region } : {}),
    ...(deps.clusterProviderIDs ? { clusterProviderIDs: deps.clusterProviderIDs } : {}),
  });
  const catalog = new OvhCatalogCache({
    catalog: deps.catalog,
    clock: deps.clock,
    call,
    ...(deps.catalogTTLMs !== undefined ? { ttlMs: deps.catalogTTLMs } : {}),
    ...(deps.onWarning ? { onWarning: deps.onWarning } : {}),
  });
  return new OvhCloudProvider({
    accounts,
    clusterName: deps.clusterName,
    catalog,
    nodeClasses: deps.nodeClasses,
    unavailableOfferings: deps.unavailableOfferings,
    call,
    clock: deps.clock,
    pollIntervalMs: deps.pollIntervalMs ?? 5_000,
    launchTimeoutMs: deps.launchTimeoutMs ?? 20 * 60 * 1000,
    maxAntiAffinityNodes: deps.maxAntiAffinityNodes ?? 5,
    emptyPoolGraceMs: deps.emptyPoolGraceMs ?? DefaultEmptyPoolGraceMs,
    ...(deps.onWarning ? { onWarning: deps.onWarning } : {}),
  });
}

/**
 * Client settings from an environment record (the composition root passes `process.env`): `OVH_ENDPOINT`
 * (default `ovh-eu`), `OVH_APPLICATION_KEY`, `OVH_APPLICATION_SECRET`, `OVH_CONSUMER_KEY`; undefined when
 * a key is missing.
 */
export function ovhClientSettingsFromEnv(env: Readonly<Record<string, string | undefined>>): OvhClientSettings | undefined {
  const applicationKey = env.OVH_APPLICATION_KEY;
  const applicationSecret = env.OVH_APPLICATION_SECRET;
  const consumerKey = env.OVH_CONSUMER_KEY;
  if (!applicationKey || !applicationSecret || !consumerKey) return undefined;
  return { applicationKey, applicationSecret, consumerKey, ...(env.OVH_ENDPOINT ? { endpoint: env.OVH_ENDPOINT } : {}) };
}

export { OvhCloudProvider } from './cloud-provider.js';
export { createOvhClient, DefaultOvhEndpoint, type OvhClientSettings, type OvhCredentials } from './client.js';
export { type OvhApi, OvhApiCalls } from './api.js';
export type { OvhApiFactory } from './accounts.js';
export { formatProviderID, instanceIdOf } from './provider-id.js';
