import { describe, expect, it } from 'vitest';
import { writeVerdict } from '../../../../src/domain/leadership/term.js';

describe('writeVerdict', () => {
  const term = { renewDeadlineMs: 2_000 };

  it('refuses before the first renewal', () => {
    expect(writeVerdict(term, 5_000)).toEqual({ allowed: false, reason: 'not leading' });
  });

  it('allows within the renew deadline of the last renewal, counted from when its attempt started', () => {
    expect(writeVerdict({ ...term, renewedAt: 1_000 }, 1_000)).toEqual({ allowed: true });
    expect(writeVerdict({ ...term, renewedAt: 1_000 }, 2_999)).toEqual({ allowed: true });
  });

  it('refuses from the renew deadline on, whatever the lease loop believes', () => {
    expect(writeVerdict({ ...term, renewedAt: 1_000 }, 3_000)).toEqual({
      allowed: false,
      reason: 'the lease was last renewed 2000ms ago, past the renew deadline of 2000ms',
    });
    expect(writeVerdict({ ...term, renewedAt: 1_000 }, 60_000)).toMatchObject({ allowed: false });
  });

  it('refuses for good once the term ended, even right after a renewal', () => {
    expect(writeVerdict({ ...term, renewedAt: 1_000, endedBecause: 'lost the lease' }, 1_001)).toEqual({
      allowed: false,
      reason: 'leadership ended: lost the lease',
    });
  });

  it('without leader election, allows until the term ends', () => {
    expect(writeVerdict({ unelected: true }, 1e12)).toEqual({ allowed: true });
    expect(writeVerdict({ unelected: true, endedBecause: 'shutting down' }, 0)).toEqual({
      allowed: false,
      reason: 'leadership ended: shutting down',
    });
  });
});
