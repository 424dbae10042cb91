/**
 * Serves the kinds a CustomResourceDefinition declares as soon as it is stored (synchronously, so a client
 * can create objects right after the CRD), marks it Established, and removes its objects when it goes.
 */
import { type Clock } from '../../../../util/clock.js';
import { crdStatus, typesFromCrd } from '../crd-types.js';
import { isoTime } from '../object-meta.js';
import { type ObjectStore, type StoreEvent } from '../object-store.js';
import { type ResourceRegistry } from '../resource-registry.js';
import { storageKey } from '../resource-type.js';
import { jsonEqual } from '../../../../util/json-patch.js';
import { type Controller } from './controller.js';
import { WorkQueue } from './work-queue.js';

const crdKey = 'apiextensions.k8s.io/customresourcedefinitions';

export class CrdController implements Controller {
  readonly name = 'crd-controller';
  private readonly queue = new WorkQueue((name) => Promise.resolve(this.markEstablished(name)));

  constructor(
    private readonly store: ObjectStore,
    private readonly registry: ResourceRegistry,
    private readonly clock: Clock,
  ) {}

  observe(event: StoreEvent): void {
    if (event.storageKey !== crdKey) return;
    const name = event.object.metadata.name ?? '';
    if (event.type === 'DELETED') {
      this.unserve(name);
      return;
    }
    this.registry.removeCrd(name);
    for (const type of typesFromCrd(event.object)) this.registry.add(type);
    this.queue.add(name);
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

  private unserve(name: string): void {
    const removed = this.registry.removeCrd(name);
    const first = removed[0];
    if (!first) return;
    const key = storageKey(first);
    for (const obj of [...this.store.values(key)])
      this.store.remove(key, obj.metadata.namespace ? `${obj.metadata.namespace}/${obj.metadata.name ?? ''}` : (obj.metadata.name ?? ''));
    this.store.dropTable(key);
  }

  private markEstablished(name: string): void {
    const crd = this.store.get(crdKey, name);
    if (!crd || crd.metadata.deletionTimestamp) return;
    const status = crdStatus(crd, isoTime(this.clock.now()));
    const previous = crd.status as { conditions?: unknown[] } | undefined;
    if (
      previous &&
      jsonEqual({ ...previous, conditions: undefined }, { ...status, conditions: undefined }) &&
      previous.conditions?.length === 2
    )
      return;
    this.store.put(crdKey, { ...structuredClone(crd), status });
  }
}
