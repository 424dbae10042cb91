/**
 * The Outscale accounts the provider works with: the operator-wide one, plus one per distinct access key an
 * OutscaleNodeClass's `credentialsSecretRef` names (keys OSC_ACCESS_KEY / OSC_SECRET_KEY, the variables the
 * Outscale CLI and SDKs read). Each account has its own signed client and launch context; VMs are found again by
 * looking in every account known — those used so far and those every existing NodeClass names.
 */
import type { OutscaleNodeClass } from '../../apis/v1alpha1/outscale-nodeclass.js';
import { NodeClassNotReadyError } from '../errors.js';
import type { NodeClassResolver } from '../types.js';
import type { OutscaleApi } from './api.js';
import type { LaunchContext } from './launch.js';

export const SecretKeyAccessKey = 'OSC_ACCESS_KEY';
export const SecretKeySecretKey = 'OSC_SECRET_KEY';

export interface OutscaleCredentials {
  accessKey: string;
  secretKey: string;
}

/** A client on the operator's endpoint and region with other credentials (the composition root builds it). */
export type OutscaleApiFactory = (credentials: OutscaleCredentials) => OutscaleApi;

export interface OutscaleAccount {
  /** `operator`, or the access key of a NodeClass's credentials. */
  key: string;
  launch: LaunchContext;
}

export interface OutscaleAccountsOptions {
  operator: LaunchContext;
  apiFactory?: OutscaleApiFactory;
  /** The launch context of another client (same cluster, catalog and retry policy). */
  contextFor: (api: OutscaleApi) => LaunchContext;
  nodeClasses: NodeClassResolver<OutscaleNodeClass>;
}

export class OutscaleAccounts {
  readonly operator: OutscaleAccount;
  private readonly byAccessKey = new Map<string, OutscaleAccount>();

  constructor(private readonly options: OutscaleAccountsOptions) {
    this.operator = { key: 'operator', launch: options.operator };
  }

  async forNodeClass(nodeClass: OutscaleNodeClass): Promise<OutscaleAccount> {
    const ref = nodeClass.spec.credentialsSecretRef;
    if (!ref) return this.operator;
    const name = nodeClass.metadata?.name ?? '';
    const data = await this.options.nodeClasses.getSecretData(ref);
    const missing = [SecretKeyAccessKey, SecretKeySecretKey].filter((k) => !data[k]);
    if (missing.length > 0) {
      throw new NodeClassNotReadyError(
        `reading credentials of OutscaleNodeClass "${name}": Secret ${ref.namespace}/${ref.name} lacks ${missing.join(' and ')}; accepted keys: ${SecretKeyAccessKey}, ${SecretKeySecretKey}`,
      );
    }
    const accessKey = data[SecretKeyAccessKey] as string;
    const known = this.byAccessKey.get(accessKey);
    if (known) return known;
    if (!this.options.apiFactory) {
      throw new NodeClassNotReadyError(
        `using credentials of OutscaleNodeClass "${name}": this provider was built without a client factory for per-NodeClass credentials`,
      );
    }
    const account = {
      key: accessKey,
      launch: this.options.contextFor(this.options.apiFactory({ accessKey, secretKey: data[SecretKeySecretKey] as string })),
    };
    this.byAccessKey.set(accessKey, account);
    return account;
  }

  /** The operator's account first, then every other one used so far or named by an existing NodeClass. */
  async all(): Promise<OutscaleAccount[]> {
    for (const nodeClass of (await this.options.nodeClasses.listNodeClasses?.()) ?? []) await this.forNodeClass(nodeClass);
    return [this.operator, ...this.byAccessKey.values()];
  }
}
