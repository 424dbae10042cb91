/**
 * Background cascading deletion: when an owner is gone, dependents whose owners are all gone are deleted
 * (through the normal delete path, so their own finalizers and dependents are honoured).
 */
import { type Deleter } from '../deletion.js';
import { type KubeObject } from '../kube-object.js';
import { type ObjectStore, type StoreEvent } from '../object-store.js';
import { type ResourceRegistry } from '../resource-registry.js';
import { systemContext } from '../write-context.js';
import { type Controller } from './controller.js';
import { WorkQueue } from './work-queue.js';

export class GarbageCollector implements Controller {
  readonly name = 'garbage-collector';
  private readonly queue = new WorkQueue((uid) => this.collect(uid));
  private readonly liveUids = new Set<string>();

  constructor(
    private readonly store: ObjectStore,
    private readonly registry: ResourceRegistry,
    private readonly deleter: Deleter,
  ) {}

  observe(event: StoreEvent): void {
    const uid = event.object.metadata.uid;
    if (!uid) return;
    if (event.type === 'DELETED') {
      this.liveUids.delete(uid);
      this.queue.add(uid);
    } else {
      this.liveUids.add(uid);
      // A dependent created after its owner vanished is collected too.
      if (event.type === 'ADDED')
        for (const ref of event.object.metadata.ownerReferences ?? []) if (!this.liveUids.has(ref.uid)) this.queue.add(ref.uid);
    }
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

  private async collect(ownerUid: string): Promise<void> {
    if (this.liveUids.has(ownerUid)) return;
    for (const { storageKey, object } of this.store.dependentsOf(ownerUid)) {
      if (object.metadata.deletionTimestamp || this.hasLiveOwner(object)) continue;
      const [group = '', plural = ''] = storageKey.split('/');
      const type = this.registry.versionsOf(group, plural)[0];
      if (!type) continue;
      try {
        await this.deleter.delete(
          type,
          object.metadata.namespace ?? '',
          object.metadata.name ?? '',
          { propagationPolicy: 'Background' },
          systemContext('generic-garbage-collector'),
        );
      } catch {
        // already gone or refused by admission: a later event retries
      }
    }
  }

  private hasLiveOwner(object: KubeObject): boolean {
    return (object.metadata.ownerReferences ?? []).some((ref) => this.liveUids.has(ref.uid));
  }
}
