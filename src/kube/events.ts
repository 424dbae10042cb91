/**
 * Kubernetes Events with de-duplication, as client-go's EventCorrelator does: the same reason on the same
 * object within the window bumps `count` and `lastTimestamp` of the Event already written instead of writing
 * a new one, so a pod pending for an hour gives one Event with a count, not hundreds of objects.
 * Events are best-effort: a failed write is logged and never fails the caller.
 */
import type { CoreV1Event } from '@kubernetes/client-node';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../util/clock.js';
import { type Logger, silentLogger } from '../util/logger.js';
import { isKubeNotFound } from './errors.js';
import type { Kube } from './types.js';

export interface InvolvedObject {
  apiVersion: string;
  kind: string;
  name: string;
  /** Unset for cluster-scoped objects (their Events go to `default`, as kubectl describe expects). */
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
}

export interface EventRecord {
  involvedObject: InvolvedObject;
  type: 'Normal' | 'Warning';
  /** UpperCamelCase, e.g. `Launched`, `FailedScheduling`, `GarbageCollected`. */
  reason: string;
  message: string;
}

export interface EventRecorderOptions {
  kube: Kube;
  clock: Clock;
  /** `source.component` / `reportingComponent`, e.g. `karpenter`. */
  component: string;
  /** `source.host` / `reportingInstance` (the pod name in `run`). */
  instance?: string;
  /** Repeats within this window are merged; default 2 min (Karpenter's recorder dedupe timeout). */
  dedupWindowMs?: number;
  /** Most distinct (object, reason) pairs remembered; default 10,000. */
  maxEntries?: number;
  logger?: Logger;
}

interface WrittenEvent {
  name: string;
  namespace: string;
  count: number;
  /** Writes for one key run in order, so a repeat never patches an Event still being created. */
  chain: Promise<void>;
}

const defaultDedupWindowMs = 2 * 60_000;

/** Cache key format: `<kind>/<namespace>/<name>/<uid>/<type>/<reason>`. */
function dedupKey(record: EventRecord): string {
  const o = record.involvedObject;
  return [o.kind, o.namespace ?? '', o.name, o.uid ?? '', record.type, record.reason].join('/');
}

export class EventRecorder {
  private readonly cache: LRUCache<string, WrittenEvent>;
  private readonly logger: Logger;
  private sequence = 0;

  constructor(private readonly options: EventRecorderOptions) {
    this.logger = (options.logger ?? silentLogger).child({ component: 'events' });
    this.cache = new LRUCache<string, WrittenEvent>({
      max: options.maxEntries ?? 10_000,
      ttl: options.dedupWindowMs ?? defaultDedupWindowMs,
      // The TTL runs on the injected clock, so tests step a FakeClock past the window.
      perf: { now: () => options.clock.now() },
    });
  }

  /** Records the event; resolves once written (or once the failure is logged). */
  publish(record: EventRecord): Promise<void> {
    const key = dedupKey(record);
    const seen = this.cache.get(key);
    if (seen) {
      seen.count += 1;
      const count = seen.count;
      seen.chain = seen.chain.then(() => this.bump(seen, record, count));
      this.cache.set(key, seen, { noUpdateTTL: true });
      return seen.chain;
    }
    const entry: WrittenEvent = {
      name: this.eventName(record),
      namespace: record.involvedObject.namespace ?? 'default',
      count: 1,
      chain: Promise.resolve(),
    };
    entry.chain = this.create(entry, record);
    this.cache.set(key, entry);
    return entry.chain;
  }

  private eventName(record: EventRecord): string {
    // client-go's `<object>.<hex nanoseconds>`, plus a sequence so two events in one millisecond differ.
    this.sequence += 1;
    const nanos = BigInt(this.options.clock.now()) * 1_000_000n + BigInt(this.sequence % 1_000_000);
    return `${record.involvedObject.name}.${nanos.toString(16)}`;
  }

  private async create(entry: WrittenEvent, record: EventRecord): Promise<void> {
    const now = new Date(this.options.clock.now()).toISOString();
    const event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: entry.name, namespace: entry.namespace },
      involvedObject: record.involvedObject,
      type: record.type,
      reason: record.reason,
      message: record.message,
      count: entry.count,
      firstTimestamp: now,
      lastTimestamp: now,
      source: { component: this.options.component, host: this.options.instance },
      reportingComponent: this.options.component,
      reportingInstance: this.options.instance ?? '',
    };
    try {
      await this.options.kube.createEvent(event as unknown as CoreV1Event);
    } catch (err) {
      this.logger.warn('writing event failed', { reason: record.reason, object: record.involvedObject.name, error: err as Error });
    }
  }

  private async bump(entry: WrittenEvent, record: EventRecord, count: number): Promise<void> {
    const patch = { count, message: record.message, lastTimestamp: new Date(this.options.clock.now()).toISOString() };
    try {
      await this.options.kube.patchEvent({ name: entry.name, namespace: entry.namespace }, patch);
    } catch (err) {
      if (!isKubeNotFound(err)) {
        this.logger.warn('updating event failed', { reason: record.reason, object: record.involvedObject.name, error: err as Error });
        return;
      }
      // Deleted meanwhile (events have a TTL on the server): write it again under a new name.
      entry.name = this.eventName(record);
      entry.count = 1;
      await this.create(entry, record);
    }
  }
}
