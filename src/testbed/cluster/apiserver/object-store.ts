/**
 * In-memory storage with one global, monotonically increasing resourceVersion (like etcd's revision),
 * a bounded event log for watch resumption, and an ownerReferences index for garbage collection.
 * Stored objects are treated as immutable: writers hand in fresh objects, readers never mutate them.
 */
import { gone } from './errors.js';
import { type KubeObject, keyOf } from './kube-object.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  resourceVersion: number;
  storageKey: string;
  type: WatchEventType;
  object: KubeObject;
  /** The object before this change (MODIFIED and DELETED). */
  previous?: KubeObject;
}

export type StoreListener = (event: StoreEvent) => void;

interface OwnedRef {
  storageKey: string;
  key: string;
}

export class ObjectStore {
  private revision: number;
  private readonly tables = new Map<string, Map<string, KubeObject>>();
  private readonly log: StoreEvent[] = [];
  private logStart = 0;
  private readonly listeners = new Map<string, Set<StoreListener>>();
  private readonly allListeners = new Set<StoreListener>();
  private readonly dependents = new Map<string, Map<string, OwnedRef>>();

  constructor(
    private readonly retainedEvents: number,
    initialRevision = 1,
  ) {
    this.revision = initialRevision;
  }

  get resourceVersion(): number {
    return this.revision;
  }

  /** The oldest resourceVersion a watch can still resume from. */
  get oldestResumableVersion(): number {
    const first = this.log[this.logStart];
    return first ? first.resourceVersion - 1 : this.revision;
  }

  table(storageKey: string): Map<string, KubeObject> {
    let table = this.tables.get(storageKey);
    if (!table) {
      table = new Map();
      this.tables.set(storageKey, table);
    }
    return table;
  }

  get(storageKey: string, key: string): KubeObject | undefined {
    return this.tables.get(storageKey)?.get(key);
  }

  values(storageKey: string): IterableIterator<KubeObject> {
    return this.table(storageKey).values();
  }

  /** Stores `object` (stamping its resourceVersion) and emits ADDED or MODIFIED. */
  put(storageKey: string, object: KubeObject): KubeObject {
    const table = this.table(storageKey);
    const key = keyOf(object);
    const previous = table.get(key);
    this.revision += 1;
    object.metadata.resourceVersion = String(this.revision);
    table.set(key, object);
    this.reindexOwners(storageKey, key, previous, object);
    this.emit({
      resourceVersion: this.revision,
      storageKey,
      type: previous ? 'MODIFIED' : 'ADDED',
      object,
      ...(previous ? { previous } : {}),
    });
    return object;
  }

  /** Removes an object for good and emits DELETED (with a fresh resourceVersion, as the real server does). */
  remove(storageKey: string, key: string): KubeObject | undefined {
    const table = this.tables.get(storageKey);
    const previous = table?.get(key);
    if (!table || !previous) return undefined;
    table.delete(key);
    this.revision += 1;
    const object: KubeObject = { ...previous, metadata: { ...previous.metadata, resourceVersion: String(this.revision) } };
    this.reindexOwners(storageKey, key, previous, undefined);
    this.emit({ resourceVersion: this.revision, storageKey, type: 'DELETED', object, previous });
    return object;
  }

  /** Drops a whole table without events (used when a CRD goes away after its objects were deleted). */
  dropTable(storageKey: string): void {
    this.tables.delete(storageKey);
  }

  /** Objects whose ownerReferences name `ownerUid`. */
  dependentsOf(ownerUid: string): Array<{ storageKey: string; object: KubeObject }> {
    const refs = this.dependents.get(ownerUid);
    if (!refs) return [];
    const out: Array<{ storageKey: string; object: KubeObject }> = [];
    for (const ref of refs.values()) {
      const object = this.get(ref.storageKey, ref.key);
      if (object) out.push({ storageKey: ref.storageKey, object });
    }
    return out;
  }

  /** Events of one resource after `resourceVersion`; 410 Expired when they are no longer retained. */
  eventsSince(storageKey: string, resourceVersion: number): StoreEvent[] {
    if (resourceVersion < this.oldestResumableVersion) {
      throw gone(`too old resource version: ${resourceVersion} (${this.oldestResumableVersion})`);
    }
    const out: StoreEvent[] = [];
    for (let i = this.firstIndexAfter(resourceVersion); i < this.log.length; i++) {
      const event = this.log[i];
      if (event && event.storageKey === storageKey) out.push(event);
    }
    return out;
  }

  /** Forgets retained events up to (and including) `resourceVersion`, as etcd compaction does. */
  compact(resourceVersion = this.revision): void {
    while (this.logStart < this.log.length && (this.log[this.logStart]?.resourceVersion ?? Infinity) <= resourceVersion) this.logStart++;
    this.trimLog();
  }

  subscribe(storageKey: string | '*', listener: StoreListener): () => void {
    if (storageKey === '*') {
      this.allListeners.add(listener);
      return () => this.allListeners.delete(listener);
    }
    let set = this.listeners.get(storageKey);
    if (!set) {
      set = new Set();
      this.listeners.set(storageKey, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  private firstIndexAfter(resourceVersion: number): number {
    let lo = this.logStart;
    let hi = this.log.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.log[mid]?.resourceVersion ?? 0) <= resourceVersion) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private emit(event: StoreEvent): void {
    this.log.push(event);
    if (this.log.length - this.logStart > this.retainedEvents) this.logStart++;
    this.trimLog();
    for (const listener of this.listeners.get(event.storageKey) ?? []) listener(event);
    for (const listener of this.allListeners) listener(event);
  }

  /** Reclaims the array's head in batches so trimming stays O(1) amortised. */
  private trimLog(): void {
    if (this.logStart > 4096 && this.logStart * 2 > this.log.length) {
      this.log.splice(0, this.logStart);
      this.logStart = 0;
    }
  }

  private reindexOwners(storageKey: string, key: string, before: KubeObject | undefined, after: KubeObject | undefined): void {
    const ref = `${storageKey}|${key}`;
    for (const owner of before?.metadata.ownerReferences ?? []) this.dependents.get(owner.uid)?.delete(ref);
    for (const owner of after?.metadata.ownerReferences ?? []) {
      let map = this.dependents.get(owner.uid);
      if (!map) {
        map = new Map();
        this.dependents.set(owner.uid, map);
      }
      map.set(ref, { storageKey, key });
    }
  }
}
