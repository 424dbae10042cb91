/**
 * The Kube port over @kubernetes/client-node 1.4: typed APIs (CoreV1Api, AppsV1Api, PolicyV1Api, AdmissionregistrationV1Api,
 * CoordinationV1Api, StorageV1Api) for built-in kinds, CustomObjectsApi for ours. Every object handed back is plain JSON
 * as on the wire (timestamps are RFC 3339 strings): the typed APIs turn timestamps into Date objects and
 * watches don't, and state must not hold two shapes of one object.
 */
import {
  AdmissionregistrationV1Api,
  AppsV1Api,
  CoordinationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  type KubeConfig,
  type KubernetesObject,
  PatchStrategy,
  PolicyV1Api,
  setHeaderOptions,
  StorageV1Api,
  type CoreV1Event,
} from '@kubernetes/client-node';
import { mapKubeError } from './error-mapping.js';
import { KubeIncompleteResponse, KubeUnreachable } from './errors.js';
import { type ResourceKind, Resources, type TypedApiName } from './resources.js';
import type { DeleteOptions, EvictOptions, Kube, ListOptions, ObjectKey, ObjectList, Patch } from './types.js';
import { gatedKubeConfig, type WriteGate } from './write-gate.js';

type ApiMethod = (param: object, options?: ReturnType<typeof setHeaderOptions>) => Promise<unknown>;
type MethodTable = Record<string, ApiMethod | undefined>;

/** Plain wire JSON: Dates become strings, class instances plain objects. */
function toWire<T>(value: unknown): T {
  if (value === undefined || value === null || typeof value !== 'object') return value as T;
  return JSON.parse(JSON.stringify(value)) as T;
}

function describe(resource: ResourceKind, key?: ObjectKey): string {
  const kind = resource.kind.toLowerCase();
  if (!key) return kind;
  return key.namespace && resource.namespaced ? `${kind} ${key.namespace}/${key.name}` : `${kind} ${key.name}`;
}

function patchOptions(patch: Patch): ReturnType<typeof setHeaderOptions> {
  return setHeaderOptions('Content-Type', patch.type === 'merge' ? PatchStrategy.MergePatch : PatchStrategy.JsonPatch);
}

function deleteBody(options?: DeleteOptions): object {
  return { apiVersion: 'v1', kind: 'DeleteOptions', ...options };
}

/** client-node sets no deadline: a half-open connection would otherwise hold a reconcile forever. */
export const DefaultRequestTimeoutMs = 30_000;

/** `promise`, or a KubeUnreachable once `ms` pass without an answer (the request itself is left to finish). */
async function withDeadline<T>(promise: Promise<T>, ms: number, doing: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new KubeUnreachable(`${doing}: no answer from the API server within ${ms / 1000}s`)), ms);
    timer.unref();
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

export interface KubeClientOptions {
  /** Default DefaultRequestTimeoutMs. */
  requestTimeoutMs?: number;
  /** Asked right before each write's bytes are sent (write-gate.ts); what it throws is what the call rejects with. */
  writeGate?: WriteGate;
}

/** The error a write gate threw, wherever fetch and client-node wrapped it. */
function refusalIn(err: unknown, refusals: WeakSet<object>): unknown {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) if (refusals.has(e)) return e;
  return undefined;
}

export class ClientNodeKube implements Kube {
  private readonly typed: Record<TypedApiName, MethodTable>;
  private readonly custom: CustomObjectsApi;
  private readonly requestTimeoutMs: number;
  private readonly refusals = new WeakSet<object>();

  constructor(config: KubeConfig, options: KubeClientOptions = {}) {
    this.requestTimeoutMs = options.requestTimeoutMs ?? DefaultRequestTimeoutMs;
    const gate = options.writeGate;
    const kubeConfig = gate ? gatedKubeConfig(config, (method, path) => this.ask(gate, method, path)) : config;
    this.typed = {
      CoreV1Api: kubeConfig.makeApiClient(CoreV1Api) as unknown as MethodTable,
      AppsV1Api: kubeConfig.makeApiClient(AppsV1Api) as unknown as MethodTable,
      PolicyV1Api: kubeConfig.makeApiClient(PolicyV1Api) as unknown as MethodTable,
      CoordinationV1Api: kubeConfig.makeApiClient(CoordinationV1Api) as unknown as MethodTable,
      StorageV1Api: kubeConfig.makeApiClient(StorageV1Api) as unknown as MethodTable,
      AdmissionregistrationV1Api: kubeConfig.makeApiClient(AdmissionregistrationV1Api) as unknown as MethodTable,
    };
    this.custom = kubeConfig.makeApiClient(CustomObjectsApi);
  }

  async get<T extends KubernetesObject>(resource: ResourceKind, key: ObjectKey): Promise<T> {
    const doing = `getting ${describe(resource, key)}`;
    const object = await this.call<T | undefined>(doing, () =>
      resource.api
        ? this.typedCall(resource, 'read', '', { name: key.name, namespace: key.namespace })
        : this.custom.getClusterCustomObject({ ...this.gvp(resource), name: key.name }),
    );
    if (typeof object?.metadata?.name !== 'string') throw new KubeIncompleteResponse(`${doing}: the reply has no metadata.name`);
    return object;
  }

  async list<T extends KubernetesObject>(resource: ResourceKind, options: ListOptions = {}): Promise<ObjectList<T>> {
    const { namespace, ...query } = options;
    const doing = `listing ${resource.plural}`;
    const result = await this.call<{ items?: T[]; metadata?: { resourceVersion?: string } } | undefined>(doing, () => {
      if (!resource.api) return this.custom.listClusterCustomObject({ ...this.gvp(resource), ...query });
      if (resource.namespaced && !namespace) return this.method(resource, `list${resource.kind}ForAllNamespaces`)(query);
      return this.typedCall(resource, 'list', '', { namespace, ...query });
    });
    // A reply without `items` is not an empty list: read as one, every instance would look unowned.
    if (!Array.isArray(result?.items)) throw new KubeIncompleteResponse(`${doing}: the reply has no items list`);
    return { items: result.items, resourceVersion: result.metadata?.resourceVersion ?? '' };
  }

  async create<T extends KubernetesObject>(resource: ResourceKind, object: T): Promise<T> {
    const key = { name: object.metadata?.name ?? object.metadata?.generateName ?? '', namespace: object.metadata?.namespace };
    return this.call(`creating ${describe(resource, key)}`, () =>
      resource.api
        ? this.typedCall(resource, 'create', '', { namespace: key.namespace, body: object })
        : this.custom.createClusterCustomObject({ ...this.gvp(resource), body: object }),
    );
  }

  async patch<T extends KubernetesObject>(
    resource: ResourceKind,
    key: ObjectKey,
    patch: Patch,
    options: { status?: boolean } = {},
  ): Promise<T> {
    const what = `patching ${options.status ? 'status of ' : ''}${describe(resource, key)}`;
    return this.call(what, () => {
      const param = { name: key.name, namespace: key.namespace, body: patch.body };
      if (resource.api) return this.typedCall(resource, 'patch', options.status ? 'Status' : '', param, patchOptions(patch));
      const customParam = { ...this.gvp(resource), name: key.name, body: patch.body };
      return options.status
        ? this.custom.patchClusterCustomObjectStatus(customParam, patchOptions(patch))
        : this.custom.patchClusterCustomObject(customParam, patchOptions(patch));
    });
  }

  async replace<T extends KubernetesObject>(resource: ResourceKind, object: T): Promise<T> {
    return this.replaceVariant(resource, object, '');
  }

  async replaceStatus<T extends KubernetesObject>(resource: ResourceKind, object: T): Promise<T> {
    return this.replaceVariant(resource, object, 'Status');
  }

  async delete(resource: ResourceKind, key: ObjectKey, options?: DeleteOptions): Promise<void> {
    await this.call(`deleting ${describe(resource, key)}`, () =>
      resource.api
        ? this.typedCall(resource, 'delete', '', { name: key.name, namespace: key.namespace, body: deleteBody(options) })
        : this.custom.deleteClusterCustomObject({ ...this.gvp(resource), name: key.name, body: deleteBody(options) }),
    );
  }

  async evict(key: Required<ObjectKey>, options: EvictOptions = {}): Promise<void> {
    const deleteOptions =
      options.gracePeriodSeconds === undefined && !options.preconditions
        ? undefined
        : { gracePeriodSeconds: options.gracePeriodSeconds, preconditions: options.preconditions };
    const body = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: key.name, namespace: key.namespace }, deleteOptions };
    await this.call(`evicting pod ${key.namespace}/${key.name}`, () =>
      this.method(Resources.Pod, 'createNamespacedPodEviction')({ name: key.name, namespace: key.namespace, body }),
    );
  }

  async createEvent(event: CoreV1Event): Promise<CoreV1Event> {
    return this.create(Resources.Event, event);
  }

  async patchEvent(key: Required<ObjectKey>, patch: object): Promise<CoreV1Event> {
    return this.patch(Resources.Event, key, { type: 'merge', body: patch });
  }

  private async replaceVariant<T extends KubernetesObject>(resource: ResourceKind, object: T, suffix: '' | 'Status'): Promise<T> {
    const key = { name: object.metadata?.name ?? '', namespace: object.metadata?.namespace };
    const what = `replacing ${suffix ? 'status of ' : ''}${describe(resource, key)}`;
    return this.call(what, () => {
      if (resource.api) return this.typedCall(resource, 'replace', suffix, { ...key, body: object });
      const param = { ...this.gvp(resource), name: key.name, body: object };
      return suffix ? this.custom.replaceClusterCustomObjectStatus(param) : this.custom.replaceClusterCustomObject(param);
    });
  }

  private gvp(resource: ResourceKind): { group: string; version: string; plural: string } {
    return { group: resource.group, version: resource.version, plural: resource.plural };
  }

  /** `read` + Pod → readNamespacedPod; `patch` + Node + Status → patchNodeStatus. */
  private typedCall(
    resource: ResourceKind,
    verb: string,
    suffix: string,
    param: object,
    options?: ReturnType<typeof setHeaderOptions>,
  ): Promise<unknown> {
    const scope = resource.namespaced ? 'Namespaced' : '';
    return this.method(resource, `${verb}${scope}${resource.kind}${suffix}`)(param, options);
  }

  private method(resource: ResourceKind, name: string): ApiMethod {
    const api = this.typed[resource.api ?? 'CoreV1Api'];
    const fn = api[name];
    if (typeof fn !== 'function')
      throw new Error(`calling ${resource.api ?? 'CoreV1Api'}.${name}: no such method for kind ${resource.kind}`);
    return fn.bind(api) as ApiMethod;
  }

  private ask(gate: WriteGate, method: string, path: string): void {
    try {
      gate(method, path);
    } catch (refusal) {
      if (refusal instanceof Error) this.refusals.add(refusal);
      throw refusal;
    }
  }

  private async call<T>(doing: string, fn: () => Promise<unknown>): Promise<T> {
    try {
      return toWire<T>(await withDeadline(fn(), this.requestTimeoutMs, doing));
    } catch (err) {
      throw refusalIn(err, this.refusals) ?? mapKubeError(err, doing);
    }
  }
}

export function createKube(kubeConfig: KubeConfig, options?: KubeClientOptions): Kube {
  return new ClientNodeKube(kubeConfig, options);
}
