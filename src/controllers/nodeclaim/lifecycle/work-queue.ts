/**
 * A keyed work queue with due times (controller-runtime's rate-limited queue, reduced): a key is queued
 * once with its earliest due time, never handed out while it is being processed, and handed out again if
 * re-added meanwhile.
 */
import type { QueueInstruments } from '../../../metrics/reconcile-metrics.js';

/** The queue's metrics and the clock they are timed with. */
export interface WorkQueueObserver {
  instruments: QueueInstruments;
  now(): number;
}

export class WorkQueue {
  private readonly due = new Map<string, number>();
  private readonly active = new Set<string>();
  private readonly startedAt = new Map<string, number>();

  constructor(private readonly observer?: WorkQueueObserver) {}

  /** Queues `key` to run at `at` (keeps the earlier time when already queued). */
  add(key: string, at: number): void {
    const current = this.due.get(key);
    if (current === undefined || at < current) this.due.set(key, at);
    if (this.observer) {
      this.observer.instruments.added(at > this.observer.now());
      this.observer.instruments.depth(this.due.size);
    }
  }

  /** Keys due at `now` and not in progress, marked in progress. */
  takeDue(now: number, limit: number): string[] {
    const out: string[] = [];
    for (const [key, at] of this.due) {
      if (out.length + this.active.size >= limit) break;
      if (at > now || this.active.has(key)) continue;
      this.due.delete(key);
      this.active.add(key);
      out.push(key);
      this.observer?.instruments.taken(Math.max(0, now - at) / 1000);
      this.startedAt.set(key, now);
    }
    this.observer?.instruments.depth(this.due.size);
    return out;
  }

  done(key: string): void {
    this.active.delete(key);
    const started = this.startedAt.get(key);
    this.startedAt.delete(key);
    if (this.observer && started !== undefined) this.observer.instruments.finished((this.observer.now() - started) / 1000);
  }

  /** The earliest due time of a key not in progress. */
  nextDueAt(): number | undefined {
    let next: number | undefined;
    for (const [key, at] of this.due) if (!this.active.has(key) && (next === undefined || at < next)) next = at;
    return next;
  }

  get activeCount(): number {
    return this.active.size;
  }
}
