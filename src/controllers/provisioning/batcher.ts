/**
 * Karpenter's provisioning Batcher on the injected clock: triggers (pod keys) collect in a window that closes
 * after `idleMs` without a trigger for a new key or `maxMs` after the first, whichever is first; `wait` returns
 * the window's de-duplicated keys.
 */
import {
  type BatchWindow,
  type BatchWindowOptions,
  DefaultBatchWindow,
  isWindowClosed,
  triggerWindow,
  validateBatchWindow,
  windowDeadline,
} from '../../domain/provisioning/batch-window.js';
import type { Clock } from '../../util/clock.js';

export class Batcher {
  private window: BatchWindow | undefined;
  private keys = new Set<string>();
  private wakeWaiter: (() => void) | undefined;
  private readonly options: BatchWindowOptions;

  constructor(
    private readonly clock: Clock,
    options: Partial<BatchWindowOptions> = {},
  ) {
    this.options = { ...DefaultBatchWindow, ...options };
    validateBatchWindow(this.options);
  }

  trigger(key: string): void {
    const now = this.clock.now();
    this.window = triggerWindow(this.window, this.keys.has(key), now);
    this.keys.add(key);
    const wake = this.wakeWaiter;
    this.wakeWaiter = undefined;
    wake?.();
  }

  /** Whether a window is open (some trigger is waiting to be batched). */
  get pending(): boolean {
    return this.window !== undefined;
  }

  /** Waits for a first trigger, then for the window to close; returns its keys. Rejects when `signal` aborts. */
  async wait(signal: AbortSignal): Promise<string[]> {
    while (!this.window) await this.nextTrigger(signal);
    for (;;) {
      const window = this.window as BatchWindow;
      const now = this.clock.now();
      if (isWindowClosed(window, now, this.options)) break;
      await this.clock.sleep(windowDeadline(window, this.options) - now, signal);
    }
    const keys = [...this.keys];
    this.keys = new Set();
    this.window = undefined;
    return keys;
  }

  private nextTrigger(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.wakeWaiter = undefined;
        reject(signal.reason);
      };
      this.wakeWaiter = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
