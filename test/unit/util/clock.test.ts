import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { FakeClock, SystemClock } from '../../../src/util/clock.js';

describe('FakeClock', () => {
  it('wakes sleepers in deadline order only when time is stepped past them', async () => {
    const clock = new FakeClock(1_000);
    const woke: string[] = [];
    const a = clock.sleep(500).then(() => woke.push('a'));
    const b = clock.sleep(100).then(() => woke.push('b'));
    expect(clock.waiting).toBe(2);
    clock.step(99);
    await Promise.resolve();
    expect(woke).toEqual([]);
    clock.step(1);
    await b;
    expect(woke).toEqual(['b']);
    clock.step(400);
    await a;
    expect(woke).toEqual(['b', 'a']);
    expect(clock.now()).toBe(1_500);
    expect(clock.waiting).toBe(0);
  });

  it('never moves backwards', () => {
    const clock = new FakeClock(5_000);
    clock.set(1_000);
    expect(clock.now()).toBe(5_000);
  });

  it('rejects an aborted sleep and forgets the sleeper', async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const sleeping = clock.sleep(1_000, controller.signal);
    controller.abort(new Error('stopping'));
    await expect(sleeping).rejects.toThrow('stopping');
    expect(clock.waiting).toBe(0);
  });

  it('a sleep that wakes normally leaves no abort listener behind (loops sleep on one long-lived signal)', async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    for (let i = 0; i < 20; i++) {
      const sleeping = clock.sleep(1_000, controller.signal);
      clock.step(1_000);
      await sleeping;
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('resolves a non-positive sleep at once', async () => {
    await expect(new FakeClock().sleep(0)).resolves.toBeUndefined();
  });
});

describe('SystemClock', () => {
  it('rejects a sleep whose signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('aborted before'));
    await expect(new SystemClock().sleep(10_000, controller.signal)).rejects.toThrow('aborted before');
  });

  it('a sleep that ends leaves no abort listener behind', async () => {
    const controller = new AbortController();
    await new SystemClock().sleep(1, controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('stops a sleep when the signal aborts', async () => {
    const controller = new AbortController();
    const sleeping = new SystemClock().sleep(60_000, controller.signal);
    controller.abort(new Error('shutdown'));
    await expect(sleeping).rejects.toThrow('shutdown');
  });
});
