/**
 * The one guard between the leader-only controllers and the outside world: every write they make to the API
 * server and every call that changes the cloud goes through the fenced Kube and the fenced CloudProvider built
 * here, and each asks the term (src/domain/leadership/term.ts) right before it is sent. Reads are never fenced.
 * The lease loop and the informers use the bare client: the Lease is guarded by its own resourceVersion.
 */
import { FencedWriteError, type LeadershipTerm, type WriteVerdict, writeVerdict } from '../domain/leadership/term.js';
import { decorateCloudProvider } from '../cloudprovider/decorate.js';
import type { ApiCallKinds, ApiGuard, CloudProvider, CloudProviderNodeClaim } from '../cloudprovider/types.js';
import type { CoreV1Event, KubeConfig, KubernetesObject } from '@kubernetes/client-node';
import { createKube } from '../kube/client.js';
import type { ResourceKind } from '../kube/resources.js';
import type { DeleteOptions, EvictOptions, Kube, ListOptions, ObjectKey, ObjectList, Patch } from '../kube/types.js';
import type { Clock } from '../util/clock.js';

export class LeadershipFence {
  private readonly term: LeadershipTerm;
  private refusals = 0;

  /** `renewDeadlineMs` unset: leader election is off, and the term runs until it ends. */
  constructor(
    private readonly clock: Clock,
    renewDeadlineMs?: number,
  ) {
    this.term = renewDeadlineMs === undefined ? { unelected: true } : { renewDeadlineMs };
  }

  /** Monotonic now; an acquire or renew attempt takes it before sending anything, and passes it to `renewed`. */
  now(): number {
    return this.clock.elapsed();
  }

  /** The attempt started at `startedAt` acquired or renewed the lease. */
  renewed(startedAt: number): void {
    if (this.term.endedBecause !== undefined) return;
    this.term.renewedAt = Math.max(this.term.renewedAt ?? startedAt, startedAt);
  }

  /** Ends the term for good: every later write is refused. */
  end(reason: string): void {
    this.term.endedBecause ??= reason;
  }

  verdict(): WriteVerdict {
    return writeVerdict(this.term, this.now());
  }

  /** Throws FencedWriteError unless this replica may write now. */
  guard(action: string): void {
    const verdict = this.verdict();
    if (verdict.allowed) return;
    this.refusals += 1;
    throw new FencedWriteError(action, verdict.reason);
  }

  /** Writes refused so far. */
  refused(): number {
    return this.refusals;
  }
}

/**
 * The leader's client: each write is checked when a controller makes it, and again by the client right before its
 * bytes go on the socket, after authentication, the fetch machinery and a new connection's handshake, all of
 * which a frozen or starved process can sit in; and again for every attempt the client makes of it.
 */
export function fencedKubeClient(kubeConfig: KubeConfig, fence: LeadershipFence): Kube {
  return fencedKube(createKube(kubeConfig, { writeGate: (method, path) => fence.guard(`sending ${method} ${path}`) }), fence);
}

/** The Kube port with every write guarded; reads go straight through. */
export function fencedKube(kube: Kube, fence: LeadershipFence): Kube {
  return new FencedKube(kube, fence);
}

class FencedKube implements Kube {
  constructor(
    private readonly inner: Kube,
    private readonly fence: LeadershipFence,
  ) {}

  get<T extends KubernetesObject>(resource: ResourceKind, key: ObjectKey): Promise<T> {
    return this.inner.get<T>(resource, key);
  }

  list<T extends KubernetesObject>(resource: ResourceKind, options?: ListOptions): Promise<ObjectList<T>> {
    return this.inner.list<T>(resource, options);
  }

  async create<T extends KubernetesObject>(resource: ResourceKind, object: T): Promise<T> {
    this.fence.guard(`creating ${resource.kind} ${object.metadata?.name ?? object.metadata?.generateName ?? ''}`);
    return this.inner.create(resource, object);
  }

  async patch<T extends KubernetesObject>(
    resource: ResourceKind,
    key: ObjectKey,
    patch: Patch,
    options?: { status?: boolean },
  ): Promise<T> {
    this.fence.guard(`patching ${resource.kind} ${key.name}`);
    return this.inner.patch<T>(resource, key, patch, options);
  }

  async replace<T extends KubernetesObject>(resource: ResourceKind, object: T): Promise<T> {
    this.fence.guard(`replacing ${resource.kind} ${object.metadata?.name ?? ''}`);
    return this.inner.replace(resource, object);
  }

  async replaceStatus<T extends KubernetesObject>(resource: ResourceKind, object: T): Promise<T> {
    this.fence.guard(`replacing the status of ${resource.kind} ${object.metadata?.name ?? ''}`);
    return this.inner.replaceStatus(resource, object);
  }

  async delete(resource: ResourceKind, key: ObjectKey, options?: DeleteOptions): Promise<void> {
    this.fence.guard(`deleting ${resource.kind} ${key.name}`);
    return this.inner.delete(resource, key, options);
  }

  async evict(key: Required<ObjectKey>, options?: EvictOptions): Promise<void> {
    this.fence.guard(`evicting Pod ${key.namespace}/${key.name}`);
    return this.inner.evict(key, options);
  }

  async createEvent(event: CoreV1Event): Promise<CoreV1Event> {
    this.fence.guard(`creating Event ${event.metadata?.name ?? ''}`);
    return this.inner.createEvent(event);
  }

  async patchEvent(key: Required<ObjectKey>, patch: object): Promise<CoreV1Event> {
    this.fence.guard(`patching Event ${key.name}`);
    return this.inner.patchEvent(key, patch);
  }
}

/** The CloudProvider with every call that changes the cloud guarded; reads go straight through. */
export function fencedCloudProvider(provider: CloudProvider, fence: LeadershipFence): CloudProvider {
  return decorateCloudProvider(provider, {
    create: (next) => async (nodeClaim) => {
      fence.guard(`launching the instance of NodeClaim ${claimName(nodeClaim)}`);
      return next(nodeClaim);
    },
    delete: (next) => async (nodeClaim) => {
      fence.guard(`deleting the instance of NodeClaim ${claimName(nodeClaim)}`);
      return next(nodeClaim);
    },
    deleteClaimResource: (next) => async (resource) => {
      fence.guard(`deleting ${resource.kind} ${resource.id}`);
      return next(resource);
    },
  });
}

const claimName = (claim: CloudProviderNodeClaim): string => claim.metadata?.name ?? '';

/**
 * A cloud API port whose `write` calls are guarded: each step of a launch or deletion (create, user data, power
 * on, tags, GPUs, pool resize) is checked right before it is sent, so a process frozen in the middle of one does
 * not finish it after its lease is gone; the successor finds what was done and resumes it by name or token.
 */
export function fencedApiGuard(fence: LeadershipFence, cloud: string): ApiGuard {
  return <T extends object>(api: T, kinds: ApiCallKinds<T>): T =>
    new Proxy(api, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        const call = value as (...args: unknown[]) => unknown;
        if (kinds[property as keyof T] !== 'write') return call.bind(target);
        return async (...args: unknown[]) => {
          fence.guard(`${cloud} ${String(property)}`);
          return call.apply(target, args);
        };
      },
    });
}
