/**
 * A self-healing informer over client-node 1.4's `ListWatch` (what `makeInformer` builds). client-node relists on 410 Gone and
 * reconnects when a watch ends cleanly, but on any other error (a 5xx, a refused connection, a failed list)
 * it fires `error` and stops for good; this wrapper starts it again after a full-jitter backoff, so the
 * cache heals itself. `hasSynced()` turns true after the first complete list, as client-go's HasSynced.
 */
import { type KubeConfig, type KubernetesObject, ListWatch, Watch } from '@kubernetes/client-node';
import { type BackoffPolicy, nextDelay, type RandomSource } from '../util/backoff.js';
import type { Clock } from '../util/clock.js';
import { type Logger, silentLogger } from '../util/logger.js';
import { collectionPath, type ResourceKind } from './resources.js';
import type { Kube } from './types.js';

export interface InformerHandlers<T> {
  onAdd?: (object: T) => void;
  onUpdate?: (object: T) => void;
  onDelete?: (object: T) => void;
}

export interface InformerOptions {
  kubeConfig: KubeConfig;
  kube: Kube;
  resource: ResourceKind;
  clock: Clock;
  /** Watch one namespace only (namespaced kinds). */
  namespace?: string;
  labelSelector?: string;
  /** Only objects matching it are listed, watched and cached (a pod that stops matching is seen as deleted). */
  fieldSelector?: string;
  /** Restart delays; default 200 ms doubling up to 30 s (client-go's reflector backs off to 30 s too). */
  restartBackoff?: Pick<BackoffPolicy, 'baseDelayMs' | 'maxDelayMs'>;
  random?: RandomSource;
  logger?: Logger;
  /** Called on each restart after an error (for a metric). */
  onRestart?: (error: unknown) => void;
}

const defaultRestartBackoff = { baseDelayMs: 200, maxDelayMs: 30_000 };

export class InformerStoppedError extends Error {
  constructor(resource: string) {
    super(`waiting for ${resource} informer to sync: stopped`);
    this.name = 'InformerStoppedError';
  }
}

export class ResourceInformer<T extends KubernetesObject> {
  private readonly informer: ListWatch<T>;
  private readonly logger: Logger;
  private readonly stopController = new AbortController();
  private synced = false;
  private started = false;
  private failures = 0;
  private restarting = false;
  private syncWaiters: Array<() => void> = [];
  private lastError: unknown;

  constructor(private readonly options: InformerOptions) {
    const { kubeConfig, kube, resource, namespace, labelSelector, fieldSelector } = options;
    this.logger = (options.logger ?? silentLogger).child({ informer: resource.plural });
    const listFn = async (): Promise<{ items: T[]; metadata: { resourceVersion: string } }> => {
      const list = await kube.list<T>(resource, { namespace, labelSelector, fieldSelector });
      return { items: list.items, metadata: { resourceVersion: list.resourceVersion } };
    };
    // makeInformer without its field selector parameter: the ListWatch it builds, with one.
    this.informer = new ListWatch<T>(
      collectionPath(resource, namespace),
      new Watch(kubeConfig),
      listFn,
      false,
      labelSelector,
      fieldSelector,
    );
    this.informer.on('error', (err: unknown) => this.handleError(err));
  }

  /** Registers typed handlers; call before start() to see the initial list as adds. */
  on(handlers: InformerHandlers<T>): void {
    if (handlers.onAdd) this.informer.on('add', handlers.onAdd);
    if (handlers.onUpdate) this.informer.on('update', handlers.onUpdate);
    if (handlers.onDelete) this.informer.on('delete', handlers.onDelete);
  }

  /** Starts listing and watching; resolves once the first attempt ended (synced or scheduled for a retry). */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.startOnce();
  }

  async stop(): Promise<void> {
    this.stopController.abort(new InformerStoppedError(this.options.resource.plural));
    await this.informer.stop();
    for (const wake of this.syncWaiters.splice(0)) wake();
  }

  hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves once synced; rejects with the signal's reason when aborted, or when the informer is stopped. */
  waitForSync(signal?: AbortSignal): Promise<void> {
    if (this.synced) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = (): void => {
        signal?.removeEventListener('abort', check);
        if (this.synced) resolve();
        else if (signal?.aborted) reject(signal.reason);
        else reject(new InformerStoppedError(this.options.resource.plural));
      };
      if (signal?.aborted) return check();
      signal?.addEventListener('abort', check, { once: true });
      this.syncWaiters.push(check);
    });
  }

  /** The cached objects (all namespaces when `namespace` is unset). */
  list(namespace?: string): readonly T[] {
    return this.informer.list(namespace);
  }

  get(name: string, namespace?: string): T | undefined {
    return this.informer.get(name, namespace);
  }

  /** The error that caused the latest restart, if any. */
  get lastFailure(): unknown {
    return this.lastError;
  }

  private async startOnce(): Promise<void> {
    const failuresBefore = this.failures;
    await this.informer.start();
    // start() resolves after the list and the watch request; an error fired meanwhile means not synced.
    if (this.failures === failuresBefore && !this.stopController.signal.aborted) this.markSynced();
  }

  private markSynced(): void {
    if (!this.synced) this.logger.debug('informer synced');
    this.synced = true;
    this.failures = 0;
    for (const wake of this.syncWaiters.splice(0)) wake();
  }

  private handleError(err: unknown): void {
    this.failures += 1;
    this.lastError = err;
    if (this.stopController.signal.aborted || this.restarting) return;
    this.restarting = true;
    void this.restartAfterBackoff(err);
  }

  private async restartAfterBackoff(err: unknown): Promise<void> {
    const policy = { ...defaultRestartBackoff, ...this.options.restartBackoff, maxAttempts: Number.MAX_SAFE_INTEGER };
    const delay = nextDelay(policy, Math.min(this.failures - 1, 30), this.options.random ?? Math.random);
    this.logger.warn('informer failed, restarting', {
      error: err instanceof Error ? err : String(err),
      delayMs: delay,
      failures: this.failures,
    });
    try {
      await this.options.clock.sleep(delay, this.stopController.signal);
    } catch {
      return; // stopped while waiting
    } finally {
      this.restarting = false;
    }
    this.options.onRestart?.(err);
    await this.startOnce();
  }
}
