/**
 * The demo's readable output: numbered steps, what happened, progress while waiting. Times are seconds
 * since the demo started. `quiet` keeps only step results, failures and the summary.
 */
import type { Clock } from '../../util/clock.js';

export interface TimelineOptions {
  write: (text: string) => void;
  clock: Clock;
  quiet?: boolean;
  /** Rewrite one progress line in place (a terminal); else print a progress line every few seconds. */
  interactive?: boolean;
}

const progressEveryMs = 3000;

export class Timeline {
  private readonly startedAt: number;
  private lastProgressAt = 0;
  private progressShown = false;

  constructor(private readonly options: TimelineOptions) {
    this.startedAt = options.clock.now();
  }

  elapsedSeconds(): number {
    return (this.options.clock.now() - this.startedAt) / 1000;
  }

  private stamp(): string {
    return `[${this.elapsedSeconds().toFixed(1).padStart(5)}s]`;
  }

  private line(text: string, always = false): void {
    if (this.options.quiet && !always) return;
    this.clearProgress();
    this.options.write(`${text}\n`);
  }

  heading(index: number, total: number, title: string): void {
    this.line(`\n${this.stamp()} ── step ${index}/${total}: ${title}`);
  }

  say(text: string): void {
    this.line(`${this.stamp()}    ${text}`);
  }

  ok(text: string): void {
    this.line(`${this.stamp()}  ✓ ${text}`, true);
  }

  skip(text: string): void {
    this.line(`${this.stamp()}  – ${text}`, true);
  }

  fail(text: string): void {
    this.line(`${this.stamp()}  ✗ ${text}`, true);
  }

  raw(text: string): void {
    this.line(text, true);
  }

  /** Shows what is being waited for; throttled, and rewritten in place on a terminal. */
  progress(text: string): void {
    if (this.options.quiet) return;
    const now = this.options.clock.now();
    if (this.options.interactive) {
      this.options.write(`\r\x1b[2K${this.stamp()}    … ${text}`);
      this.progressShown = true;
      return;
    }
    if (now - this.lastProgressAt < progressEveryMs) return;
    this.lastProgressAt = now;
    this.options.write(`${this.stamp()}    … ${text}\n`);
  }

  private clearProgress(): void {
    if (this.progressShown) this.options.write('\r\x1b[2K');
    this.progressShown = false;
    this.lastProgressAt = this.options.clock.now();
  }
}
