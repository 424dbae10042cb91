/**
 * The only file importing the OVH SDK (`@ovhcloud/node-ovh` 3.0.0, the renamed successor of `ovh` 2.0.3; CommonJS, HTTPS only): a narrow promise API over
 * `requestPromised` implementing the `OvhApi` port. The endpoint is configurable (`endpoint: 'ovh-eu'`, or
 * `host` + `port` for an emulator), so the same code runs against MKS and against the loopback emulator
 * with only credentials and endpoint changed. The SDK has no CA option: a private CA is trusted through
 * `https.globalAgent.options.ca` by whoever starts the process (tests, the demo).
 *
 * Every rejection is mapped to a core error class (`errors.ts`); a call that gets no answer within
 * `timeoutMs` becomes a TransientCloudError (the SDK's own socket timeout is unreliable).
 */
import { createRequire } from 'node:module';
import type { OvhApi, OvhCluster, OvhFlavor, OvhKubeTarget, OvhNode, OvhNodePool, OvhPoolCreation, OvhPoolUpdate } from './api.js';
import { IncompleteResponseError } from '../errors.js';
import { failureOf, toCloudError } from './errors.js';
import { parseOrderCatalog } from './prices.js';
import { requireList, requireObject } from './responses.js';

export interface OvhCredentials {
  applicationKey: string;
  applicationSecret: string;
  consumerKey: string;
}

export interface OvhClientSettings extends OvhCredentials {
  /**
   * An `ovh` endpoint name (`ovh-eu`, `ovh-ca`, `ovh-us`) or an `https://host[:port]` API URL (an emulator
   * on loopback; the path is the SDK's `/1.0`); default `ovh-eu`. Ignored when `host` is set.
   */
  endpoint?: string;
  /** A host to call instead of the endpoint's (an emulator: `127.0.0.1`). */
  host?: string;
  port?: number;
  /** Per-call deadline; default 30 s. */
  timeoutMs?: number;
}

export const DefaultOvhEndpoint = 'ovh-eu';
const DefaultTimeoutMs = 30_000;

interface OvhSdkClient {
  requestPromised(method: string, path: string, params?: Record<string, unknown>): Promise<unknown>;
}

type OvhSdkFactory = (params: Record<string, unknown>) => OvhSdkClient;

const require = createRequire(import.meta.url);

/** The SDK's constructor parameters for these settings. */
export function ovhSdkParams(settings: OvhClientSettings): Record<string, unknown> {
  const params: Record<string, unknown> = {
    appKey: settings.applicationKey,
    appSecret: settings.applicationSecret,
    consumerKey: settings.consumerKey,
  };
  // `endpoint` overwrites `host` inside the SDK, so an explicit host is passed without it.
  if (settings.host) return { ...params, host: settings.host, ...(settings.port ? { port: settings.port } : {}) };
  const endpoint = settings.endpoint ?? DefaultOvhEndpoint;
  if (endpoint.startsWith('https://')) {
    const url = new URL(endpoint);
    return { ...params, host: url.hostname, ...(url.port ? { port: Number(url.port) } : {}) };
  }
  return { ...params, endpoint };
}

/** The fields the provider cannot read an entry without. */
const ClusterKeys = ['id', 'region'];
const PoolKeys = ['id', 'name', 'flavor'];
const NodeKeys = ['id', 'nodePoolId', 'status', 'createdAt'];
const FlavorKeys = ['name'];

function kube(target: OvhKubeTarget): string {
  return `/cloud/project/${encodeURIComponent(target.serviceName)}/kube/${encodeURIComponent(target.kubeId)}`;
}

class OvhSdkApi implements OvhApi {
  constructor(
    private readonly sdk: OvhSdkClient,
    private readonly timeoutMs: number,
  ) {}

  private async call<T>(operation: string, method: string, path: string, params?: Record<string, unknown>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject({ error: new Error(`no answer within ${this.timeoutMs} ms`) }), this.timeoutMs);
    });
    try {
      return (await Promise.race([this.sdk.requestPromised(method, path, params), deadline])) as T;
    } catch (rejection) {
      throw toCloudError(failureOf(rejection), operation);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A read whose answer is checked by `validate` (a broken answer is never read as empty). */
  private async read<T>(
    operation: string,
    path: string,
    validate: (operation: string, body: unknown) => T,
    params?: Record<string, unknown>,
  ): Promise<T> {
    return validate(operation, await this.call<unknown>(operation, 'GET', path, params));
  }

  listClusters(serviceName: string): Promise<string[]> {
    const operation = `listing the mks clusters of project ${serviceName}`;
    return this.read(operation, `/cloud/project/${encodeURIComponent(serviceName)}/kube`, (op, body) => {
      if (!Array.isArray(body) || body.some((id) => typeof id !== 'string'))
        throw new IncompleteResponseError(`${op}: the answer is not a list of cluster ids`);
      return body as string[];
    });
  }

  getCluster(target: OvhKubeTarget): Promise<OvhCluster> {
    return this.read(`reading mks cluster ${target.kubeId}`, kube(target), (op, body) => requireObject<OvhCluster>(op, body, ClusterKeys));
  }

  listCapabilityFlavors(serviceName: string, region: string): Promise<OvhFlavor[]> {
    const path = `/cloud/project/${encodeURIComponent(serviceName)}/capabilities/kube/flavors`;
    return this.read(`listing mks flavors of ${region}`, path, (op, body) => requireList<OvhFlavor>(op, body, FlavorKeys), { region });
  }

  listCapabilityRegions(serviceName: string): Promise<string[]> {
    const operation = `listing the mks regions of project ${serviceName}`;
    return this.read(operation, `/cloud/project/${encodeURIComponent(serviceName)}/capabilities/kube/regions`, (op, body) => {
      // An empty list is no answer: MKS is offered somewhere to every project that can call this.
      if (!Array.isArray(body) || body.length === 0 || body.some((r) => typeof r !== 'string'))
        throw new IncompleteResponseError(`${op}: the answer is not a list of region names`);
      return body as string[];
    });
  }

  async listPrices(subsidiary: string): Promise<ReadonlyMap<string, { hourly?: number; monthly?: number }>> {
    const body = await this.call<unknown>('reading the public order catalog', 'GET', '/order/catalog/public/cloud', {
      ovhSubsidiary: subsidiary,
    });
    return parseOrderCatalog(body);
  }

  listNodePools(target: OvhKubeTarget): Promise<OvhNodePool[]> {
    return this.read(`listing node pools of cluster ${target.kubeId}`, `${kube(target)}/nodepool`, (op, body) =>
      requireList<OvhNodePool>(op, body, PoolKeys),
    );
  }

  getNodePool(target: OvhKubeTarget, poolId: string): Promise<OvhNodePool> {
    return this.read(`reading node pool ${poolId}`, `${kube(target)}/nodepool/${encodeURIComponent(poolId)}`, (op, body) =>
      requireObject<OvhNodePool>(op, body, PoolKeys),
    );
  }

  createNodePool(target: OvhKubeTarget, body: OvhPoolCreation): Promise<OvhNodePool> {
    return this.call(`creating node pool ${body.name}`, 'POST', `${kube(target)}/nodepool`, { ...body });
  }

  async updateNodePool(target: OvhKubeTarget, poolId: string, body: OvhPoolUpdate): Promise<void> {
    await this.call(`updating node pool ${poolId}`, 'PUT', `${kube(target)}/nodepool/${encodeURIComponent(poolId)}`, { ...body });
  }

  async deleteNodePool(target: OvhKubeTarget, poolId: string): Promise<void> {
    await this.call(`deleting node pool ${poolId}`, 'DELETE', `${kube(target)}/nodepool/${encodeURIComponent(poolId)}`);
  }

  listPoolNodes(target: OvhKubeTarget, poolId: string): Promise<OvhNode[]> {
    return this.read(`listing nodes of node pool ${poolId}`, `${kube(target)}/nodepool/${encodeURIComponent(poolId)}/nodes`, (op, body) =>
      requireList<OvhNode>(op, body, NodeKeys),
    );
  }

  listNodes(target: OvhKubeTarget): Promise<OvhNode[]> {
    return this.read(`listing nodes of cluster ${target.kubeId}`, `${kube(target)}/node`, (op, body) =>
      requireList<OvhNode>(op, body, NodeKeys),
    );
  }

  async deleteNode(target: OvhKubeTarget, nodeId: string): Promise<void> {
    await this.call(`deleting node ${nodeId}`, 'DELETE', `${kube(target)}/node/${encodeURIComponent(nodeId)}`);
  }
}

/** An `OvhApi` over the OVH SDK (`@ovhcloud/node-ovh`) with these credentials and endpoint. */
export function createOvhClient(settings: OvhClientSettings): OvhApi {
  const factory = require('@ovhcloud/node-ovh') as OvhSdkFactory;
  return new OvhSdkApi(factory(ovhSdkParams(settings)), settings.timeoutMs ?? DefaultTimeoutMs);
}
