import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DefaultBatchWindow,
  extendWindow,
  InvalidBatchWindowError,
  isWindowClosed,
  openWindow,
  triggerWindow,
  validateBatchWindow,
  windowDeadline,
} from '../../../../src/domain/provisioning/index.js';

describe('batch window', () => {
  it.each([
    // triggers (ms after open), expected close time
    { triggers: [0], closesAt: 1_000 },
    { triggers: [0, 500], closesAt: 1_500 },
    { triggers: [0, 900, 1_800, 2_700], closesAt: 3_700 },
    { triggers: Array.from({ length: 20 }, (_, i) => i * 900), closesAt: 10_000 },
  ])('closes $closesAt ms after opening for triggers at $triggers', ({ triggers, closesAt }) => {
    let w = openWindow(triggers[0] as number);
    for (const t of triggers.slice(1)) w = extendWindow(w, t);
    expect(windowDeadline(w, DefaultBatchWindow)).toBe(closesAt);
    expect(isWindowClosed(w, closesAt - 1, DefaultBatchWindow)).toBe(false);
    expect(isWindowClosed(w, closesAt, DefaultBatchWindow)).toBe(true);
  });

  it('a repeat trigger for a key the window holds moves no deadline; a new key extends, no window opens one', () => {
    const opened = triggerWindow(undefined, false, 100);
    expect(opened).toEqual({ openedAt: 100, lastTriggerAt: 100 });
    expect(triggerWindow(opened, true, 700)).toEqual(opened);
    expect(triggerWindow(opened, false, 700)).toEqual({ openedAt: 100, lastTriggerAt: 700 });
    expect(triggerWindow(undefined, true, 900), 'no window: a trigger opens one').toEqual({ openedAt: 900, lastTriggerAt: 900 });
  });

  it('never closes later than max after the first trigger, nor earlier than idle after it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 5_000 }), { maxLength: 30 }),
        fc.integer({ min: 0, max: 2_000 }),
        fc.integer({ min: 0, max: 20_000 }),
        (gaps, idleMs, extra) => {
          const options = { idleMs, maxMs: idleMs + extra };
          let now = 0;
          let w = openWindow(now);
          for (const g of gaps) {
            now += g;
            if (isWindowClosed(w, now, options)) break;
            w = extendWindow(w, now);
          }
          const deadline = windowDeadline(w, options);
          expect(deadline).toBeLessThanOrEqual(options.maxMs);
          expect(deadline).toBeGreaterThanOrEqual(Math.min(idleMs, options.maxMs));
          expect(deadline).toBeGreaterThanOrEqual(
            w.lastTriggerAt > options.maxMs ? options.maxMs : Math.min(w.lastTriggerAt + idleMs, options.maxMs),
          );
        },
      ),
    );
  });

  it.each([
    { idleMs: -1, maxMs: 10, field: 'idle duration -1 ms' },
    { idleMs: 100, maxMs: 50, field: 'max duration 50 ms' },
    { idleMs: Number.NaN, maxMs: 50, field: 'idle duration NaN ms' },
  ])('rejects $field', ({ idleMs, maxMs, field }) => {
    expect(() => validateBatchWindow({ idleMs, maxMs })).toThrow(InvalidBatchWindowError);
    expect(() => validateBatchWindow({ idleMs, maxMs })).toThrow(field);
  });
});
