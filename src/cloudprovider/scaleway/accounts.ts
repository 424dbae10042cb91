/**
 * The Scaleway accounts the provider works with: the operator-wide one, plus one per distinct credentials
 * Secret a ScalewayNodeClass names (`credentialsSecretRef`, keys SCW_ACCESS_KEY / SCW_SECRET_KEY, as the
 * Scaleway GPU controller's Secret). `list`, `get` and `delete` look in every account seen so far.
 */
import type { ScalewayNodeClass } from '../../apis/v1alpha1/scaleway-nodeclass.js';
import { NodeClassNotReadyError } from '../errors.js';
import type { RetryOptions } from '../retry.js';
import type { NodeClassResolver } from '../types.js';
import type { ScalewayApi } from './api.js';
import { ScalewayInstances } from './instances.js';

export const SecretKeyAccessKey = 'SCW_ACCESS_KEY';
export const SecretKeySecretKey = 'SCW_SECRET_KEY';

export interface ScalewayCredentials {
  accessKey: string;
  secretKey: string;
  projectId: string;
}

/** Builds an API client for a NodeClass's own credentials (the composition root passes `createScalewayClient`). */
export type ScalewayApiFactory = (credentials: ScalewayCredentials) => ScalewayApi;

export interface ScalewayAccountsOptions {
  api: ScalewayApi;
  apiFactory?: ScalewayApiFactory;
  nodeClasses: NodeClassResolver<ScalewayNodeClass>;
  retry: RetryOptions;
  listPageSize?: number;
}

export class ScalewayAccounts {
  readonly operator: ScalewayInstances;
  private readonly byCredentials = new Map<string, ScalewayInstances>(); // "<accessKey>/<projectId>" -> instances

  constructor(private readonly options: ScalewayAccountsOptions) {
    this.operator = new ScalewayInstances(options.api, options.retry, options.listPageSize);
  }

  /** Every account seen so far, the operator's first. */
  all(): ScalewayInstances[] {
    return [this.operator, ...this.byCredentials.values()];
  }

  /**
   * Every account seen so far and every account an existing NodeClass names, the operator's first: right
   * after a restart a server is found in its NodeClass's account before that NodeClass launched anything. A
   * NodeClass whose credentials cannot be read fails the call: a search missing an account must not pass
   * for "not found".
   */
  async known(): Promise<ScalewayInstances[]> {
    for (const nodeClass of (await this.options.nodeClasses.listNodeClasses?.()) ?? []) await this.forNodeClass(nodeClass);
    return this.all();
  }

  async forNodeClass(nodeClass: ScalewayNodeClass): Promise<ScalewayInstances> {
    const ref = nodeClass.spec.credentialsSecretRef;
    if (!ref) return this.operator;
    const name = nodeClass.metadata?.name ?? '';
    const data = await this.options.nodeClasses.getSecretData(ref);
    const accessKey = data[SecretKeyAccessKey];
    const secretKey = data[SecretKeySecretKey];
    if (!accessKey || !secretKey) {
      throw new NodeClassNotReadyError(
        `reading credentials of ScalewayNodeClass "${name}": Secret ${ref.namespace}/${ref.name} lacks ${SecretKeyAccessKey} or ${SecretKeySecretKey}`,
      );
    }
    const key = `${accessKey}/${nodeClass.spec.projectId}`;
    const known = this.byCredentials.get(key);
    if (known) return known;
    if (!this.options.apiFactory) {
      throw new NodeClassNotReadyError(
        `using credentials of ScalewayNodeClass "${name}": this provider was built without an API factory for per-NodeClass credentials`,
      );
    }
    const instances = new ScalewayInstances(
      this.options.apiFactory({ accessKey, secretKey, projectId: nodeClass.spec.projectId }),
      this.options.retry,
      this.options.listPageSize,
    );
    this.byCredentials.set(key, instances);
    return instances;
  }
}
