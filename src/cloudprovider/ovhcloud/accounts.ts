/**
 * Which OVH account and MKS cluster a NodeClass launches in: the NodeClass's `credentialsSecretRef` (keys
 * `applicationKey`, `applicationSecret`, `consumerKey`, optional `endpoint`) or the operator-wide client;
 * `spec.kubeId`, the operator's, or the one detected from this cluster's nodes; `spec.region` or the cluster's own
 * (read once with GET kube/{id}).
 */
import type { OVHNodeClass } from '../../apis/v1alpha1/ovh-nodeclass.js';
import { NodeClassNotReadyError } from '../errors.js';
import type { DetectedCluster, NodeClassResolver } from '../types.js';
import type { OvhApi, OvhKubeTarget } from './api.js';
import type { OvhClientSettings } from './client.js';
import { detectKubeId, KubeIdNotDetectedError } from './kube-detection.js';

export const SecretKeys = {
  applicationKey: 'applicationKey',
  applicationSecret: 'applicationSecret',
  consumerKey: 'consumerKey',
  endpoint: 'endpoint',
} as const;

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
  /** This cluster's Nodes' providerIDs: with them a NodeClass without a kubeId gets the detected one. */
  clusterProviderIDs?: () => readonly string[];
}

export class OvhAccounts {
  private readonly byKey = new Map<string, Promise<OvhAccount>>();
  private readonly clients = new Map<string, OvhApi>();
  private readonly detections = new Map<string, Promise<string>>();

  constructor(private readonly options: OvhAccountsOptions) {}

  /** The operator-wide account, when serviceName and kubeId are configured. */
  async defaultAccount(): Promise<OvhAccount | undefined> {
    const { serviceName, kubeId } = this.options;
    if (!serviceName || !kubeId) return undefined;
    return this.account('default', this.options.api, { serviceName, kubeId }, this.options.region);
  }

  /** The operator-wide kubeId, when configured. */
  operatorKubeId(): string | undefined {
    return this.options.kubeId;
  }

  /** The operator-wide project and client, when a serviceName is configured. */
  operatorProject(): { serviceName: string; api: OvhApi } | undefined {
    return this.options.serviceName ? { serviceName: this.options.serviceName, api: this.options.api } : undefined;
  }

  /**
   * Each distinct project and client the region list can be read with: the operator-wide one, then each
   * OVHNodeClass's own serviceName and credentials (most installs have no operator-wide project). A class whose
   * credentials cannot be used is skipped: its status says why.
   */
  async regionReaders(): Promise<{ serviceName: string; api: OvhApi }[]> {
    const readers = new Map<string, { serviceName: string; api: OvhApi }>();
    const operator = this.operatorProject();
    if (operator) readers.set(`default/${operator.serviceName}`, operator);
    for (const nodeClass of (await this.options.nodeClasses.listNodeClasses?.()) ?? []) {
      if (nodeClass.metadata?.deletionTimestamp) continue;
      const client = await this.clientFor(nodeClass).catch((error: unknown) => {
        if (error instanceof NodeClassNotReadyError) return undefined;
        throw error;
      });
      const key = client && `${client.credentialsKey}/${nodeClass.spec.serviceName}`;
      if (client && key && !readers.has(key)) readers.set(key, { serviceName: nodeClass.spec.serviceName, api: client.api });
    }
    return [...readers.values()];
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
    const { credentialsKey, api } = await this.clientFor(nodeClass);
    const target = { serviceName: nodeClass.spec.serviceName, kubeId: await this.kubeIdFor(nodeClass, credentialsKey, api) };
    return this.account(credentialsKey, api, target, nodeClass.spec.region ?? this.options.region);
  }

  /**
   * For the NodeClass's status: the cluster the class or the operator names, else the one detected for it, or
   * why none could be; undefined when its credentials are unusable. A cloud outage is thrown.
   */
  async detectedCluster(nodeClass: OVHNodeClass): Promise<DetectedCluster | undefined> {
    const named = nodeClass.spec.kubeId ?? this.options.kubeId;
    if (named) return { named: { kubeId: named } };
    if (!this.options.clusterProviderIDs) return undefined;
    try {
      const account = await this.forNodeClass(nodeClass);
      return { detected: { kubeId: account.target.kubeId, region: account.region } };
    } catch (error) {
      if (error instanceof KubeIdNotDetectedError) return { notDetected: error.message };
      // Credentials the class cannot use: its Ready condition already says so, from the Secret itself.
      if (error instanceof NodeClassNotReadyError) return undefined;
      throw error;
    }
  }

  private async kubeIdFor(nodeClass: OVHNodeClass, credentialsKey: string, api: OvhApi): Promise<string> {
    const kubeId = nodeClass.spec.kubeId ?? this.options.kubeId;
    if (kubeId) return kubeId;
    const providerIDs = this.options.clusterProviderIDs;
    if (!providerIDs) {
      throw new NodeClassNotReadyError(
        `resolving OVHNodeClass "${nodeClass.metadata?.name ?? ''}": spec.kubeId is unset and no operator-wide kubeId is configured; accepted: the MKS cluster id (a UUID)`,
      );
    }
    // One detection per project and credentials; a failed one is not remembered, so the next call asks again.
    const key = `${credentialsKey}/${nodeClass.spec.serviceName}`;
    let detection = this.detections.get(key);
    if (!detection) {
      detection = detectKubeId(api, nodeClass.spec.serviceName, providerIDs());
      this.detections.set(key, detection);
      detection.catch(() => this.detections.delete(key));
    }
    return detection;
  }

  private async clientFor(nodeClass: OVHNodeClass): Promise<{ credentialsKey: string; api: OvhApi }> {
    const name = nodeClass.metadata?.name ?? '';
    const ref = nodeClass.spec.credentialsSecretRef;
    if (!ref) return { credentialsKey: 'default', api: this.options.api };
    const data = await this.options.nodeClasses.getSecretData(ref);
    const missing = [SecretKeys.applicationKey, SecretKeys.applicationSecret, SecretKeys.consumerKey].filter((k) => !data[k]);
    if (missing.length > 0) {
      throw new NodeClassNotReadyError(
        `reading Secret ${ref.namespace}/${ref.name} of OVHNodeClass "${name}": keys ${missing.join(', ')} are missing; accepted: applicationKey, applicationSecret, consumerKey, endpoint`,
      );
    }
    if (!this.options.apiFactory) {
      throw new NodeClassNotReadyError(
        `resolving OVHNodeClass "${name}": credentialsSecretRef is set but this service builds no per-NodeClass OVH clients`,
      );
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
    return { credentialsKey, api };
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
