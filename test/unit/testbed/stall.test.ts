import { describe, expect, it } from 'vitest';
import { PauseSchedule, stallEventLoop } from '../../../src/testbed/faults/stall.js';

describe('process pauses for tests', () => {
  it('stallEventLoop keeps timers from running until it returns', async () => {
    let fired = false;
    const timer = new Promise<void>((resolve) =>
      setTimeout(() => {
        fired = true;
        resolve();
      }, 1),
    );
    stallEventLoop(30);
    expect(fired).toBe(false);
    await timer;
    expect(fired).toBe(true);
  });

  it('PauseSchedule jumps within its bounds, as often as asked, the same way for the same seed', () => {
    const draw = (seed: number) => {
      const s = new PauseSchedule({ seed, chance: 0.25, minMs: 2_000, maxMs: 8_000 });
      return Array.from({ length: 400 }, () => s.next());
    };
    const jumps = draw(3).filter((ms) => ms > 0);
    expect(draw(3)).toEqual(draw(3));
    expect(jumps.length).toBeGreaterThan(60);
    expect(jumps.length).toBeLessThan(140);
    expect(Math.min(...jumps)).toBeGreaterThanOrEqual(2_000);
    expect(Math.max(...jumps)).toBeLessThanOrEqual(8_000);
  });

  it('refuses settings that make no sense, naming the field', () => {
    expect(() => new PauseSchedule({ chance: 2, maxMs: 1 })).toThrow('pause schedule: chance is 2');
    expect(() => stallEventLoop(-1)).toThrow('ms is -1');
  });
});
