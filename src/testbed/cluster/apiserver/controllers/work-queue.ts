/**
 * A de-duplicating work queue drained on the next turn of the event loop, like a controller-runtime
 * workqueue with one worker. Errors are kept (for tests to inspect) and never crash the server.
 */
export class WorkQueue {
  private readonly pending = new Set<string>();
  private scheduled: NodeJS.Immediate | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  readonly errors: Error[] = [];

  constructor(private readonly process: (key: string) => Promise<void>) {}

  add(key: string): void {
    if (this.stopped) return;
    this.pending.add(key);
    if (!this.scheduled && !this.running) this.scheduled = setImmediate(() => void this.drain());
  }

  /** Resolves once no work is pending or running. */
  async idle(): Promise<void> {
    while (this.scheduled || this.running || this.pending.size > 0) {
      if (this.running) await this.running;
      else await new Promise((resolve) => setImmediate(resolve));
    }
  }

  get busy(): boolean {
    return this.scheduled !== undefined || this.running !== undefined || this.pending.size > 0;
  }

  stop(): void {
    this.stopped = true;
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    this.pending.clear();
  }

  private async drain(): Promise<void> {
    this.scheduled = undefined;
    this.running = (async () => {
      while (this.pending.size > 0 && !this.stopped) {
        const key = this.pending.values().next().value as string;
        this.pending.delete(key);
        try {
          await this.process(key);
        } catch (err) {
          if (this.errors.length < 100) this.errors.push(err as Error);
        }
      }
    })();
    await this.running;
    this.running = undefined;
  }
}
