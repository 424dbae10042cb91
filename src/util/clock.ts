/**
 * Time as an injected dependency: production code gets SystemClock, tests and the demo get FakeClock and
 * move it by hand (Karpenter's FakeClock.Step), so nothing waits through real batch windows or timeouts.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /**
   * Milliseconds on a monotonic clock (arbitrary origin), for measuring intervals: it never steps back or jumps
   * when the wall clock is set, and it keeps counting while the process is stopped.
   */
  elapsed(): number;
  /** Resolves after `ms` of this clock's time; rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }

  elapsed(): number {
    return performance.now();
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

interface Sleeper {
  wakeAt: number;
  resolve: () => void;
}

/** A clock that only moves when `step` or `set` is called. Sleepers wake in deadline order. */
export class FakeClock implements Clock {
  private current: number;
  private sleepers: Sleeper[] = [];

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  elapsed(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.sleepers = this.sleepers.filter((s) => s !== sleeper);
        reject(signal?.reason);
      };
      // A sleeper that wakes normally takes its abort listener with it: long-lived loops must not pile them up.
      const sleeper: Sleeper = {
        wakeAt: this.current + ms,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      this.sleepers.push(sleeper);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Moves time forward by `ms` and wakes every sleeper whose deadline has passed. */
  step(ms: number): void {
    this.set(this.current + ms);
  }

  set(epochMs: number): void {
    this.current = Math.max(this.current, epochMs);
    const due = this.sleepers.filter((s) => s.wakeAt <= this.current).sort((a, b) => a.wakeAt - b.wakeAt);
    this.sleepers = this.sleepers.filter((s) => s.wakeAt > this.current);
    for (const s of due) s.resolve();
  }

  /** Number of pending sleepers; lets tests wait until a loop is parked before stepping. */
  get waiting(): number {
    return this.sleepers.length;
  }
}
