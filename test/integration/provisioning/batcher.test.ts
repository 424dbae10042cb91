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

  it('rejects a wait when aborted before any trigger', async () => {
    const batcher = new Batcher(new FakeClock());
    const abort = new AbortController();
    const waiting = batcher.wait(abort.signal);
    abort.abort(new Error('stopping'));
    await expect(waiting).rejects.toThrow('stopping');
  });
});
