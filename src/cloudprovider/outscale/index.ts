/** The Outscale CloudProvider and its signed client, wired from credentials (composition roots use this). */
import { loadCatalog } from '../../catalog/index.js';
import type { CatalogFile } from '../../catalog/types.js';
import { createOutscaleClient, type OutscaleClientOptions } from './client.js';
import { type OutscaleApi, OutscaleApiCalls } from './api.js';
import type { ApiGuard } from '../types.js';
import { OutscaleCloudProvider, type OutscaleCloudProviderOptions } from './cloud-provider.js';

export { OutscaleCloudProvider, OutscaleNodeClassKindRef, type OutscaleCloudProviderOptions } from './cloud-provider.js';
export { OutscaleClient, createOutscaleClient, type OutscaleClientOptions } from './client.js';
export type { OutscaleApi } from './api.js';
export { formatProviderId, parseProviderId, InvalidProviderIdError } from './provider-id.js';
export { DriftReasons } from './nodeclass.js';
export { TagManagedBy, TagNodeClaim, TagNodePool, TagCcmNodeName, ccmClusterTag } from './instances.js';

export type CreateOutscaleCloudProviderOptions = Omit<OutscaleCloudProviderOptions, 'api' | 'apiFactory' | 'catalog'> & {
  /** Endpoint, region and access/secret keys of the Outscale account (fetch and timeout optional). */
  client: Omit<OutscaleClientOptions, 'clock'>;
  /** Default: the bundled Outscale catalog. */
  catalog?: CatalogFile;
  /** Guards every call that changes the cloud, on each account's client. */
  guardApi?: ApiGuard;
};

export function createOutscaleCloudProvider(options: CreateOutscaleCloudProviderOptions): OutscaleCloudProvider {
  const { client, catalog, guardApi, ...rest } = options;
  const guarded = (api: OutscaleApi): OutscaleApi => (guardApi ? guardApi(api, OutscaleApiCalls) : api);
  const api = guarded(createOutscaleClient({ ...client, clock: options.clock }));
  // NodeClasses with their own credentialsSecretRef get a client on the same endpoint and region.
  const apiFactory = (credentials: { accessKey: string; secretKey: string }): OutscaleApi =>
    guarded(createOutscaleClient({ ...client, ...credentials, clock: options.clock }));
  return new OutscaleCloudProvider({ ...rest, api, apiFactory, catalog: catalog ?? loadCatalog('outscale') });
}
