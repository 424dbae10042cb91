/**
 * Batch window arithmetic (Karpenter's `Batcher`): the first trigger opens a window, every later trigger
 * pushes its idle deadline back, and the window closes at whichever comes first of `idle` without a trigger
 * or `max` after it opened. Pure: times are passed in.
 */

export interface BatchWindowOptions {
  /** Close after this long without a new trigger (upstream BATCH_IDLE_DURATION, 1 s). */
  idleMs: number;
  /** Close at the latest this long after the first trigger (upstream BATCH_MAX_DURATION, 10 s). */
  maxMs: number;
}

export const DefaultBatchWindow: BatchWindowOptions = { idleMs: 1_000, maxMs: 10_000 };

export interface BatchWindow {
  openedAt: number;
  lastTriggerAt: number;
}

export class InvalidBatchWindowError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidBatchWindowError';
  }
}

/** Rejects windows that could never close or close before they open. */
export function validateBatchWindow(options: BatchWindowOptions): void {
  if (!Number.isFinite(options.idleMs) || options.idleMs < 0) {
    throw new InvalidBatchWindowError(
      `validating batch window: idle duration ${options.idleMs} ms is invalid; accepted: a finite number ≥ 0`,
    );
  }
  if (!Number.isFinite(options.maxMs) || options.maxMs < options.idleMs) {
    throw new InvalidBatchWindowError(
      `validating batch window: max duration ${options.maxMs} ms is invalid; accepted: a finite number ≥ the idle duration (${options.idleMs} ms)`,
    );
  }
}

export function openWindow(now: number): BatchWindow {
  return { openedAt: now, lastTriggerAt: now };
}

/** A new trigger: the idle deadline moves, the max deadline does not. */
export function extendWindow(window: BatchWindow, now: number): BatchWindow {
  return { openedAt: window.openedAt, lastTriggerAt: Math.max(window.lastTriggerAt, now) };
}

/**
 * A trigger's effect on the window: none open, it opens one; a key not in the window yet extends it; a key the
 * window already holds leaves it as it is. Upstream's Batcher ignores a repeat trigger for a pod in the batch, so
 * a pending pod whose status keeps being rewritten cannot hold the window open until its max while other pods
 * arrive: the batch closes idle after the last new pod, on a whole burst.
 */
export function triggerWindow(window: BatchWindow | undefined, alreadyInWindow: boolean, now: number): BatchWindow {
  if (!window) return openWindow(now);
  return alreadyInWindow ? window : extendWindow(window, now);
}

/** When the window closes if no other trigger comes. */
export function windowDeadline(window: BatchWindow, options: BatchWindowOptions): number {
  return Math.min(window.lastTriggerAt + options.idleMs, window.openedAt + options.maxMs);
}

export function isWindowClosed(window: BatchWindow, now: number, options: BatchWindowOptions): boolean {
  return now >= windowDeadline(window, options);
}
