/**
 * The scheduling queue, reduced to what changes outcomes: a pod is tried when it is new; after a failure it
 * backs off (1s doubling to 10s, kube-scheduler's defaults) and is retried once a cluster event (node change,
 * pod removal) has happened after the failure, or after 5 minutes regardless (podMaxInUnschedulablePodsDuration).
 * An event that arrives while the pod's attempt runs counts too (kube-scheduler's moveRequestCycle): a node
 * that became ready during a slow cycle must not leave the pod waiting for the 5 minutes.
 */
export interface QueueTimings {
  initialBackoffMs: number;
  maxBackoffMs: number;
  maxUnschedulableMs: number;
}

export const DefaultQueueTimings: QueueTimings = { initialBackoffMs: 1_000, maxBackoffMs: 10_000, maxUnschedulableMs: 300_000 };

interface Attempt {
  attempts: number;
  failedAt: number;
  backoffUntil: number;
  movedByEvent: boolean;
}

export class SchedulingQueue {
  private readonly failed = new Map<string, Attempt>();
  private events = 0;

  constructor(private readonly timings: QueueTimings = DefaultQueueTimings) {}

  /** Whether a pending pod should be tried now. */
  ready(key: string, now: number): boolean {
    const a = this.failed.get(key);
    if (!a) return true;
    return (a.movedByEvent && now >= a.backoffUntil) || now >= a.failedAt + this.timings.maxUnschedulableMs;
  }

  /** The mark an attempt takes when it starts, for `markFailed`. */
  eventMark(): number {
    return this.events;
  }

  /** A failed attempt that started at `startMark` (`eventMark()`); an event since then moves it at once. */
  markFailed(key: string, now: number, startMark: number = this.events): void {
    const attempts = (this.failed.get(key)?.attempts ?? 0) + 1;
    const backoff = Math.min(this.timings.maxBackoffMs, this.timings.initialBackoffMs * 2 ** (attempts - 1));
    this.failed.set(key, { attempts, failedAt: now, backoffUntil: now + backoff, movedByEvent: this.events !== startMark });
  }

  /** A cluster event that may make failed pods schedulable. */
  moveAllOnEvent(): void {
    this.events += 1;
    for (const a of this.failed.values()) a.movedByEvent = true;
  }

  forget(key: string): void {
    this.failed.delete(key);
  }

  /** The earliest time a failed pod becomes ready on its own, for the loop's sleep. */
  nextWake(now: number): number | undefined {
    let next: number | undefined;
    for (const a of this.failed.values()) {
      const at = a.movedByEvent ? Math.max(now, a.backoffUntil) : a.failedAt + this.timings.maxUnschedulableMs;
      next = next === undefined ? at : Math.min(next, at);
    }
    return next;
  }

  attemptsOf(key: string): number {
    return this.failed.get(key)?.attempts ?? 0;
  }
}
