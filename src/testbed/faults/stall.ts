/**
 * Process pauses for tests: what a long GC pause, a CPU-starved container or a VM freeze does to an operator.
 * `stallEventLoop` blocks this process's event loop for real milliseconds (timers, watch reads and HTTP answers
 * all wait, then run in a rush). On a FakeClock nothing real elapses, so a pause there is `PauseSchedule`'s
 * answer: how far the clock jumps in one step, every sleeper then waking at once as after a freeze.
 */
import { seededRandom } from '../../util/seeded-random.js';

/** Busy-waits `ms` real milliseconds: nothing else in this process runs meanwhile. */
export function stallEventLoop(ms: number): void {
  if (!(Number.isFinite(ms) && ms >= 0)) throw new Error(`stalling the event loop: ms is ${ms}; a finite number ≥ 0 is accepted`);
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spinning is the point
  }
}

export interface PauseSettings {
  seed?: number;
  /** Chance per step that the process freezes. */
  chance: number;
  /** Longest freeze, ms (each is uniform in [minMs, maxMs]). */
  maxMs: number;
  minMs?: number;
}

/** Seeded freezes for a stepped clock: `next()` is how many ms to jump at once (0 = no freeze this step). */
export class PauseSchedule {
  private readonly random: () => number;

  constructor(private readonly settings: PauseSettings) {
    const { chance, maxMs, minMs = 0 } = settings;
    if (!(chance >= 0 && chance <= 1)) throw new Error(`pause schedule: chance is ${chance}; a number in [0, 1] is accepted`);
    if (!(Number.isFinite(maxMs) && maxMs >= minMs && minMs >= 0))
      throw new Error(`pause schedule: minMs ${minMs} / maxMs ${maxMs}; finite, 0 ≤ minMs ≤ maxMs is accepted`);
    this.random = seededRandom(settings.seed ?? 1);
  }

  next(): number {
    if (this.random() >= this.settings.chance) return 0;
    const min = this.settings.minMs ?? 0;
    return Math.round(min + this.random() * (this.settings.maxMs - min));
  }
}
