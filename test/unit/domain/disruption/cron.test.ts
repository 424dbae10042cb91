import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cronMatches, cronNext, cronWindowActive, InvalidCronError, parseCron } from '../../../../src/domain/disruption/cron.js';

const at = (iso: string): number => Date.parse(iso);

describe('parseCron + cronMatches', () => {
  it.each([
    ['* * * * *', '2026-01-05T12:34:00Z', true],
    ['0 9 * * 1-5', '2026-01-05T09:00:00Z', true], // Monday
    ['0 9 * * 1-5', '2026-01-04T09:00:00Z', false], // Sunday
    ['0 9 * * mon-fri', '2026-01-09T09:00:00Z', true], // Friday
    ['*/15 * * * *', '2026-01-05T12:45:00Z', true],
    ['*/15 * * * *', '2026-01-05T12:46:00Z', false],
    ['0 0 1 jan *', '2026-01-01T00:00:00Z', true],
    ['0 0 1,15 * *', '2026-03-15T00:00:00Z', true],
    ['0 0 * * 7', '2026-01-04T00:00:00Z', true], // 7 = Sunday
    ['0 0 13 * 5', '2026-02-06T00:00:00Z', true], // dom and dow both restricted: either matches (Friday)
    ['@daily', '2026-06-01T00:00:00Z', true],
    ['@hourly', '2026-06-01T05:00:00Z', true],
    ['@hourly', '2026-06-01T05:01:00Z', false],
    ['30 8-17/3 * * *', '2026-06-01T14:30:00Z', true],
    // robfig/cron: a stepped day field (*/N, N > 1) is restricted, so day-of-month OR day-of-week matches.
    ['0 0 */10 * 1', '2026-01-05T00:00:00Z', true], // a Monday, the 5th
    ['0 0 */10 * 1', '2026-01-11T00:00:00Z', true], // the 11th, a Sunday
    ['0 0 */10 * 1', '2026-01-06T00:00:00Z', false],
    ['5/15 * * * *', '2026-06-01T05:50:00Z', true], // N/step runs from N to the field's maximum
    ['5/15 * * * *', '2026-06-01T05:00:00Z', false],
    ['30 8-17/3 * * *', '2026-06-01T13:30:00Z', false],
  ])('%s at %s → %s', (schedule, iso, expected) => {
    expect(cronMatches(parseCron(schedule), at(iso))).toBe(expected);
  });

  it('parses each distinct schedule once (croner allocates ~80 KB per compile), and the shared one still answers', () => {
    const first = parseCron('0 8 * * 1-5');
    expect(parseCron('0 8 * * 1-5')).toBe(first);
    expect(cronMatches(first, at('2026-01-05T08:00:00Z'))).toBe(true);
    expect(cronNext(first, at('2026-01-05T08:00:00Z'))).toBe(at('2026-01-06T08:00:00Z'));
    expect(cronMatches(parseCron('0 8 * * 1-5'), at('2026-01-04T08:00:00Z'))).toBe(false);
  });

  it.each(['* * * *', '61 * * * *', '* 24 * * *', 'a b c d e', '5-1 * * * *', '* * 0 * *', '*/0 * * * *', '@often'])(
    'rejects %s with a reason',
    (schedule) => {
      expect(() => parseCron(schedule)).toThrow(InvalidCronError);
      expect(() => parseCron(schedule)).toThrow(/parsing budget schedule .*accepted: 5 fields/);
    },
  );
});

describe('cronNext and windows', () => {
  it('finds the next weekday 09:00 from a Saturday', () => {
    expect(new Date(cronNext(parseCron('0 9 * * 1-5'), at('2026-01-03T10:00:00Z')) as number).toISOString()).toBe(
      '2026-01-05T09:00:00.000Z',
    );
  });
  it('returns undefined for a schedule that never fires', () => {
    expect(cronNext(parseCron('0 0 31 2 *'), at('2026-01-01T00:00:00Z'))).toBeUndefined();
  });
  it.each([
    ['2026-01-05T08:59:00Z', false],
    ['2026-01-05T09:00:00Z', true],
    ['2026-01-05T16:59:00Z', true],
    ['2026-01-05T17:00:00Z', false],
    ['2026-01-10T10:00:00Z', false], // Saturday
  ])('business hours 09:00+8h at %s active=%s', (iso, expected) => {
    expect(cronWindowActive(parseCron('0 9 * * 1-5'), 8 * 3_600_000, at(iso))).toBe(expected);
  });

  it('cronNext is the first matching minute strictly after t (property, brute-force check)', () => {
    const schedules = ['*/7 * * * *', '0 */5 * * *', '15 3 * * 2', '0 0 1 * *', '*/20 9-17 * * 1-5'].map((s) => parseCron(s));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4 }), fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2027, 0, 1) }), (i, t) => {
        const c = schedules[i] as ReturnType<typeof parseCron>;
        const next = cronNext(c, t) as number;
        expect(next).toBeGreaterThan(t);
        expect(cronMatches(c, next)).toBe(true);
        // No hit in between (checked minute by minute over at most 2 days).
        const first = Math.floor(t / 60_000) * 60_000 + 60_000;
        for (let m = first; m < Math.min(next, first + 2 * 86_400_000); m += 60_000) expect(cronMatches(c, m)).toBe(false);
      }),
      { numRuns: 40 },
    );
  });
});
