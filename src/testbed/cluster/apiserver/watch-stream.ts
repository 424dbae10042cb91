/**
 * One watch connection: replays from the requested resourceVersion (or the current state as ADDED events),
 * then streams matching changes; an object that stops or starts matching the selectors becomes DELETED/ADDED.
 * Too-old versions get an ERROR event carrying a 410 Expired Status, as kube-apiserver sends.
 * Bookmarks, timeoutSeconds and the delivery delays (watch-delay.ts) run on the injected clock.
 */
import { type Clock } from '../../../util/clock.js';
import { ApiError } from './errors.js';
import { type KubeObject } from './kube-object.js';
import { type ListOptions, matchesListOptions } from './list-options.js';
import { type ObjectStore, type StoreEvent, type WatchEventType } from './object-store.js';
import { type ResourceType, apiVersionOf, storageKey } from './resource-type.js';
import { type WatchDelays } from './watch-delay.js';

export interface WatchSink {
  write(line: string): void;
  end(): void;
  onClose(listener: () => void): void;
  /** Re-encodes the object of ADDED/MODIFIED/DELETED events (a Table row for `kubectl get -w`). */
  encode?(object: KubeObject): unknown;
}

export interface WatchSettings {
  bookmarkIntervalMs: number;
  /** Delivery delays per resource; none when absent. */
  delays?: WatchDelays;
}

export class WatchStream {
  private unsubscribe: (() => void) | undefined;
  private readonly abort = new AbortController();
  private closed = false;
  private lastVersion = 0;
  /** Events written but not delivered yet (a delay), in order, each with the clock time it is due. */
  private readonly pending: { dueAt: number; line: string }[] = [];
  private draining = false;

  constructor(
    private readonly store: ObjectStore,
    private readonly type: ResourceType,
    private readonly options: ListOptions,
    private readonly sink: WatchSink,
    private readonly clock: Clock,
    private readonly settings: WatchSettings,
  ) {}

  start(): void {
    this.sink.onClose(() => this.close());
    let backlog: StoreEvent[] | KubeObject[];
    const from = this.options.resourceVersion;
    try {
      backlog = from === '' || from === '0' ? this.currentObjects() : this.store.eventsSince(storageKey(this.type), Number(from));
    } catch (err) {
      if (err instanceof ApiError) {
        this.send('ERROR', err.toStatus());
        this.close();
        return;
      }
      throw err;
    }
    this.lastVersion = from === '' || from === '0' ? this.store.resourceVersion : Number(from);
    for (const item of backlog) {
      if ('storageKey' in item) this.onEvent(item as StoreEvent);
      else this.send('ADDED', item);
    }
    this.unsubscribe = this.store.subscribe(storageKey(this.type), (event) => this.onEvent(event));
    if (this.options.timeoutSeconds > 0) void this.closeAfter(this.options.timeoutSeconds * 1000);
    if (this.options.allowWatchBookmarks) void this.bookmarkLoop();
  }

  /** Ends the stream as a dropped connection would. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe?.();
    this.abort.abort(new Error('watch closed'));
    this.sink.end();
  }

  sendBookmark(): void {
    if (this.closed || !this.options.allowWatchBookmarks) return;
    const version = Math.max(this.lastVersion, this.store.resourceVersion);
    this.send('BOOKMARK', { kind: this.type.kind, apiVersion: apiVersionOf(this.type), metadata: { resourceVersion: String(version) } });
  }

  private currentObjects(): KubeObject[] {
    return [...this.store.values(storageKey(this.type))].filter((o) => matchesListOptions(o, this.type, this.options));
  }

  private onEvent(event: StoreEvent): void {
    if (this.closed) return;
    this.lastVersion = event.resourceVersion;
    const nowMatches = matchesListOptions(event.object, this.type, this.options);
    const wasMatching = event.previous !== undefined && matchesListOptions(event.previous, this.type, this.options);
    let type: WatchEventType | undefined;
    if (event.type === 'ADDED') type = nowMatches ? 'ADDED' : undefined;
    else if (event.type === 'DELETED') type = wasMatching || nowMatches ? 'DELETED' : undefined;
    else if (nowMatches) type = wasMatching ? 'MODIFIED' : 'ADDED';
    else if (wasMatching) type = 'DELETED';
    if (type) this.send(type, event.object);
  }

  private send(type: string, object: unknown): void {
    if (this.closed && type !== 'ERROR') return;
    const encoded = this.sink.encode && type !== 'ERROR' && type !== 'BOOKMARK' ? this.sink.encode(object as KubeObject) : object;
    const line = `${JSON.stringify({ type, object: encoded })}\n`;
    const delay = type === 'ERROR' ? 0 : (this.settings.delays?.delayFor(this.type.plural, this.clock.now()) ?? 0);
    if (delay === 0 && this.pending.length === 0) {
      this.sink.write(line);
      return;
    }
    // One connection delivers in order: an event never overtakes one written before it.
    const dueAt = Math.max(this.clock.now() + delay, this.pending.at(-1)?.dueAt ?? 0);
    this.pending.push({ dueAt, line });
    if (!this.draining) void this.drain();
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      for (let next = this.pending[0]; next; next = this.pending[0]) {
        const wait = next.dueAt - this.clock.now();
        if (wait > 0) await this.clock.sleep(wait, this.abort.signal);
        this.pending.shift();
        if (!this.closed) this.sink.write(next.line);
      }
    } catch {
      // closed: what was still on its way is lost with the connection, as a dropped watch loses it
    } finally {
      this.draining = false;
    }
  }

  private async closeAfter(ms: number): Promise<void> {
    try {
      await this.clock.sleep(ms, this.abort.signal);
      this.close();
    } catch {
      // closed first
    }
  }

  private async bookmarkLoop(): Promise<void> {
    try {
      for (;;) {
        await this.clock.sleep(this.settings.bookmarkIntervalMs, this.abort.signal);
        this.sendBookmark();
      }
    } catch {
      // closed
    }
  }
}
