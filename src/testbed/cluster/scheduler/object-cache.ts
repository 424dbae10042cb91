/**
 * A list+watch cache over the Kubernetes API (client-node's informer), keyed by namespace/name, that tells
 * its owner about every change. The kubelet and scheduler simulators read the cluster only through these,
 * as their real counterparts do; a broken watch is restarted (the informer relists on 410).
 */
import {
  makeInformer,
  type Informer,
  type KubeConfig,
  type KubernetesListObject,
  type KubernetesObject,
  type ObjectCache as ClientCache,
} from '@kubernetes/client-node';

export type CacheEvent = 'add' | 'update' | 'delete';
export type CacheListener<T> = (event: CacheEvent, object: T) => void;

const restartDelayMs = 200;

export function cacheKey(object: KubernetesObject): string {
  const { namespace, name } = object.metadata ?? {};
  return namespace ? `${namespace}/${name ?? ''}` : (name ?? '');
}

export class ObjectCache<T extends KubernetesObject> {
  private readonly objects = new Map<string, T>();
  private readonly listeners: CacheListener<T>[] = [];
  private readonly informer: Informer<T> & ClientCache<T>;
  private restartTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(kubeConfig: KubeConfig, path: string, list: () => Promise<KubernetesListObject<T>>) {
    this.informer = makeInformer<T>(kubeConfig, path, list);
    this.informer.on('add', (o) => this.apply('add', o));
    this.informer.on('update', (o) => this.apply('update', o));
    this.informer.on('delete', (o) => this.apply('delete', o));
    this.informer.on('error', () => this.scheduleRestart());
  }

  onChange(listener: CacheListener<T>): void {
    this.listeners.push(listener);
  }

  /** Resolves once the first list has been loaded. */
  async start(): Promise<void> {
    await this.informer.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    await this.informer.stop();
  }

  get(key: string): T | undefined {
    return this.objects.get(key);
  }

  values(): IterableIterator<T> {
    return this.objects.values();
  }

  get size(): number {
    return this.objects.size;
  }

  private apply(event: CacheEvent, object: T): void {
    const key = cacheKey(object);
    if (event === 'delete') this.objects.delete(key);
    else this.objects.set(key, object);
    for (const listener of this.listeners) listener(event, object);
  }

  private scheduleRestart(): void {
    if (this.stopped || this.restartTimer) return;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (!this.stopped) this.informer.start().catch(() => this.scheduleRestart());
    }, restartDelayMs);
    this.restartTimer.unref();
  }
}
