/**
 * Watches a chaos world while it runs: a snapshot at the arrival of every request that changes the cloud
 * (before the cloud acts) and every `intervalMs`; duplicates and wrong deletions are checked on each
 * consecutive pair of snapshots, so a deletion (of an instance or a GPU) is judged on what the cloud and cluster
 * held just before it.
 */
import type { RequestInfo } from '../../../src/testbed/emulators/faults.js';
import { duplicates, type ObservedWorld, type Violation, wrongDeletions, wrongGpuRemovals } from './invariants.js';
import type { ChaosWorld } from './world.js';

function changesTheCloud(req: RequestInfo): boolean {
  if (req.action && /^(Read|Get|List)/i.test(req.action)) return false;
  return req.method.toUpperCase() !== 'GET';
}

export class Monitor {
  private last: ObservedWorld | undefined;
  private readonly found = new Map<string, Violation>();
  private watchId: number | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly world: ChaosWorld) {}

  start(intervalMs = 250): void {
    this.watchId = this.world.faults.watch(undefined, (req) => {
      if (changesTheCloud(req)) this.check();
    });
    this.timer = setInterval(() => this.check(), intervalMs);
  }

  stop(): void {
    if (this.watchId !== undefined) this.world.faults.remove(this.watchId);
    if (this.timer) clearInterval(this.timer);
  }

  check(): void {
    const now = this.world.observe();
    const seen = [...duplicates(now), ...(this.last ? [...wrongDeletions(this.last, now), ...wrongGpuRemovals(this.last, now)] : [])];
    for (const v of seen) this.found.set(`${v.kind}/${v.subject}`, v);
    this.last = now;
  }

  violations(): Violation[] {
    return [...this.found.values()];
  }

  count(kind: Violation['kind']): number {
    return this.violations().filter((v) => v.kind === kind).length;
  }
}
