/** Empties a Terminating namespace, then releases it (the `kubernetes` spec finalizer). */
import { type Deleter } from '../deletion.js';
import { type ObjectStore, type StoreEvent } from '../object-store.js';
import { type ResourceRegistry } from '../resource-registry.js';
import { storageKey } from '../resource-type.js';
import { systemContext } from '../write-context.js';
import { type Controller } from './controller.js';
import { WorkQueue } from './work-queue.js';

export class NamespaceController implements Controller {
  readonly name = 'namespace-controller';
  private readonly queue = new WorkQueue((name) => this.reconcile(name));

  constructor(
    private readonly store: ObjectStore,
    private readonly registry: ResourceRegistry,
    private readonly deleter: Deleter,
  ) {}

  observe(event: StoreEvent): void {
    if (event.storageKey === '/namespaces') {
      if (event.object.metadata.deletionTimestamp && event.type !== 'DELETED') this.queue.add(event.object.metadata.name ?? '');
      return;
    }
    const ns = event.object.metadata.namespace;
    if (event.type === 'DELETED' && ns && this.store.get('/namespaces', ns)?.metadata.deletionTimestamp) this.queue.add(ns);
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  get busy(): boolean {
    return this.queue.busy;
  }

  get errors(): readonly Error[] {
    return this.queue.errors;
  }

  stop(): void {
    this.queue.stop();
  }

  private async reconcile(name: string): Promise<void> {
    const ns = this.store.get('/namespaces', name);
    if (!ns?.metadata.deletionTimestamp) return;
    let remaining = 0;
    const ctx = systemContext('namespace-controller');
    const seen = new Set<string>();
    for (const type of this.registry.all().filter((t) => t.namespaced)) {
      if (seen.has(storageKey(type))) continue;
      seen.add(storageKey(type));
      const inNamespace = [...this.store.values(storageKey(type))].filter((o) => o.metadata.namespace === name);
      remaining += inNamespace.length;
      for (const obj of inNamespace) {
        if (obj.metadata.deletionTimestamp) continue;
        try {
          await this.deleter.delete(type, name, obj.metadata.name ?? '', {}, ctx);
        } catch {
          // retried on the next event
        }
      }
    }
    if (remaining === 0 || this.isEmpty(name)) this.store.remove('/namespaces', name);
  }

  private isEmpty(name: string): boolean {
    return this.registry
      .all()
      .filter((t) => t.namespaced)
      .every((t) => ![...this.store.values(storageKey(t))].some((o) => o.metadata.namespace === name));
  }
}
