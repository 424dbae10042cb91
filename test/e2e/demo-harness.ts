/** What the end-to-end tests share: the demo played in process with its output kept, and waiting on the world. */
import { defaultControllers } from '../../src/operator/default-controllers.js';
import type { DemoCloud } from '../../src/testbed/demo/environment.js';
import { runDemo } from '../../src/testbed/demo/run-demo.js';
import { SystemClock } from '../../src/util/clock.js';
import { silentLogger } from '../../src/util/logger.js';

/** The demo's steps in order, each `id:status`, as a run that passes them all reports them. */
export function stepsPassed(skipped: readonly string[] = []): string[] {
  const steps = ['install', 'reject', 'scale-up', 'flavors', 'zone-spread', 'gpu', 'consolidation', 'drift'];
  return steps.map((id) => `${id}:${skipped.includes(id) ? 'skipped' : 'passed'}`);
}

/** Plays the demo as `karpenter-eu demo` does (the real operator, wall clock); `output` is its timeline. */
export async function playDemo(
  clouds: readonly DemoCloud[],
): Promise<{ summary: Awaited<ReturnType<typeof runDemo>>['summary']; output: string; steps: string[] }> {
  let output = '';
  const { summary } = await runDemo({
    clouds: [...clouds],
    clock: new SystemClock(),
    logger: silentLogger,
    controllers: defaultControllers,
    write: (text) => (output += text),
  });
  return { summary, output, steps: summary.steps.map((s) => `${s.id}:${s.status}`) };
}

/** Polls `check` every 100 ms until it gives a value (not undefined or false); throws naming `what` after the timeout. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached in ${timeoutMs / 1000}s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
