/**
 * Which OVH account and MKS cluster a NodeClass launches in: the NodeClass's `credentialsSecretRef` (keys
 * `applicationKey`, `applicationSecret`, `consumerKey`, optional `endpoint`) or the operator-wide client;
 * `spec.kubeId` or the operator's; `spec.region` or the cluster's own (read once with GET kube/{id}).
 */
import type { OVHNodeClass } from '../../apis/v1alpha1/ovh-nodeclass.js';
import { NodeClassNotReadyError } from '../errors.js';
import type { NodeClassResolver } from '../types.js';
import type { OvhApi, OvhKubeTarget } from './api.js';
import type { OvhClientSettings } from './client.js';

export const SecretKeys = { applicationKey: 'applicationKey', applicationSecret: 'applicationSecret', consumerKey: 'consumerKey', endpoint: 'endpoint' } as const;

export type OvhApiFactory = (settings: OvhClientSettings) => OvhApi;

/** One MKS cluster reached with one set of credentials: what every call of a launch needs. */
export interface OvhAccount {
  /** Distinguishes accounts in caches and locks: `<credentials>/<serviceName>/<kubeId>`. */
  key: string;
  api: OvhApi;
  target: OvhKubeTarget;
  region: string;
}

export interface OvhAccountsOptions {
  api: OvhApi;
  apiFactory?: OvhApiFactory;
  nodeClasses: NodeClassResolver<OVHNodeClass>;
  /** Defaults for NodeClasses that leave them unset. */
  serviceName?: string;
  kubeId?: string;
  region?: string;
}

export class OvhAccounts {
  private readonly byKey = new Map<string, Promise<OvhAccount>>();
  private readonly clients = new Map<string, OvhApi>();

  constructor(private readonly options: OvhAccountsOptions) {}

  /** The operator-wide account, when serviceName and kubeId are configured. */
  async defaultAccount(): Promise<OvhAccount | undefined> {
    const { serviceName, kubeId } = this.options;
    if (!serviceName || !kubeId) return undefined;
    return this.account('default', this.options.api, { serviceName, kubeId }, this.options.region);
  }

  /**
   * Every account used so far and every account an existing OVHNodeClass names (list() reads them all, so a
   * restart does not hide the nodes of a NodeClass that has not launched anything since). A NodeClass whose
   * account cannot be resolved fails the call: a list missing an account must not pass for complete.
   */
  async known(): Promise<OvhAccount[]> {
    await this.defaultAccount();
    for (const nodeClass of (await this.options.nodeClasses.listNodeClasses?.()) ?? []) await this.forNodeClass(nodeClass);
    return Promise.all(this.byKey.values());
  }

  async forNodeClass(nodeClass: OVHNodeClass): Promise<OvhAccount> {
    const name = nodeClass.metadata?.name ?? '';
    const kubeId = nodeClass.spec.kubeId ?? this.options.kubeId;
    if (!kubeId) {
      throw new NodeClassNotReadyError(`resolving OVHNodeClass "${name}": spec.kubeId is unset and no operator-wide kubeId is configured; accepted: the MKS cluster id (a UUID)`);
    }
    const target = { serviceName: nodeClass.spec.serviceName, kubeId };
    const ref = nodeClass.spec.credentialsSecretRef;
    if (!ref) return this.account('default', this.options.api, target, nodeClass.spec.region ?? this.options.region);
    const data = await this.options.nodeClasses.getSecretData(ref);
    const missing = [SecretKeys.applicationKey, SecretKeys.applicationSecret, SecretKeys.consumerKey].filter((k) => !data[k]);
    if (missing.length > 0) {
      throw new NodeClassNotReadyError(`reading Secret ${ref.namespace}/${ref.name} of OVHNodeClass "${name}": keys ${missing.join(', ')} are missing; accepted: applicationKey, applicationSecret, consumerKey, endpoint`);
    }
    if (!this.options.apiFactory) {
      throw new NodeClassNotReadyError(`resolving OVHNodeClass "${name}": credentialsSecretRef is set but this service builds no per-NodeClass OVH clients`);
    }
    const credentialsKey = `${data[SecretKeys.endpoint] ?? ''}:${data[SecretKeys.applicationKey]}:${data[SecretKeys.consumerKey]}`;
    let api = this.clients.get(credentialsKey);
    if (!api) {
      api = this.options.apiFactory({
        applicationKey: data[SecretKeys.applicationKey] ?? '',
        applicationSecret: data[SecretKeys.applicationSecret] ?? '',
        consumerKey: data[SecretKeys.consumerKey] ?? '',
        ...(data[SecretKeys.endpoint] ? { endpoint: data[SecretKeys.endpoint] } : {}),
      });
      this.clients.set(credentialsKey, api);
    }
    return this.account(credentialsKey, api, target, nodeClass.spec.region ?? this.options.region);
  }

  private account(credentialsKey: string, api: OvhApi, target: OvhKubeTarget, region: string | undefined): Promise<OvhAccount> {
    const key = `${credentialsKey}/${target.serviceName}/${target.kubeId}`;
    let account = this.byKey.get(key);
    if (!account) {
      account = this.resolve(key, api, target, region);
      this.byKey.set(key, account);
      // A failed detection is not remembered: the next call asks again.
      account.catch(() => this.byKey.delete(key));
    }
    return account;
  }

  private async resolve(key: string, api: OvhApi, target: OvhKubeTarget, region: string | undefined): Promise<OvhAccount> {
    const detected = region ?? (await api.getCluster(target)).region;
    return { key, api, target, region: detected };
  }
}
