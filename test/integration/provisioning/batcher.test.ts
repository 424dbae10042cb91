import { describe, expect, it } from 'vitest';
import { Batcher } from '../../../src/controllers/provisioning/index.js';
import { FakeClock } from '../../../src/util/clock.js';

/** Lets promise callbacks run after a clock step. */
const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('Batcher on a FakeClock', () => {
  it('closes after the idle window, extended by each trigger, with de-duplicated keys', async () => {
    const clock = new FakeClock();
    const batcher = new Batcher(clock, { idleMs: 1_000, maxMs: 10_000 });
    const abort = new AbortController();
    let keys: string[] | undefined;
    const waiting = batcher.wait(abort.signal).then((k) => (keys = k));
    batcher.trigger('default/a');
    await flush();
    clock.step(600);
    batcher.trigger('default/b');
    batcher.trigger('default/a');
    await flush();
    clock.step(999);
    await flush();
    expect(keys).toBeUndefined();
    clock.step(1);
    await waiting;
    expect(keys).toEqual(['default/a', 'default/b']);
    expect(batcher.pending).toBe(false);
  });

  it('closes at the max window however often triggers come', async () => {
    const clock = new FakeClock();
    const batcher = new Batcher(clock, { idleMs: 1_000, maxMs: 3_000 });
    const abort = new AbortController();
    let closedAt: number | undefined;
    const start = clock.now();
    const waiting = batcher.wait(abort.signal).then(() => (closedAt = clock.now()));
    for (let i = 0; i < 10 && closedAt === undefined; i++) {
      batcher.trigger(`default/p${i}`);
      await flush();
      clock.step(500);
      await flush();
    }
    await waiting;
    expect(closedAt).toBe(start + 3_000);
  });

  it('a pod that keeps being updated does not hold the window open: it closes idle after the last new pod', async () => {
    // Pending pods whose status kube-scheduler keeps rewriting trigger again and again; the window still closes
    // on the pods that are new, as upstream's Batcher ignores a repeat trigger for a pod already in the batch.
    const clock = new FakeClock();
    const batcher = new Batcher(clock, { idleMs: 1_000, maxMs: 10_000 });
    const abort = new AbortController();
    let closedAt: number | undefined;
    const start = clock.now();
    const waiting = batcher.wait(abort.signal).then(() => (closedAt = clock.now()));
    batcher.trigger('default/stranded');
    await flush();
    clock.step(300);
    batcher.trigger('default/web');
    for (let i = 0; i < 120 && closedAt === undefined; i++) {
      await flush();
      clock.step(100);
      await flush();
      batcher.trigger('default/stranded');
      batcher.trigger('default/web');
    }
    await waiting;
    expect(closedAt).toBe(start + 1_300);
  });

  it('rejects a wait when aborted before any trigger', async () => {
    const batcher = new Batcher(new FakeClock());
    const abort = new AbortController();
    const waiting = batcher.wait(abort.signal);
    abort.abort(new Error('stopping'));
    await expect(waiting).rejects.toThrow('stopping');
  });
});
