import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DefaultShrinkRule,
  forgetDeleted,
  isSharpShrink,
  judgeListingShrink,
  type ListedInstance,
  type ListingMemory,
} from '../../../../src/domain/termination/index.js';

const listed = (...ids: number[]): ListedInstance[] => ids.map((id) => ({ providerID: `fake:///z/i-${id}`, createdAt: 0 }));
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
const fresh: ListingMemory = { awaitingConfirmation: false };

describe('isSharpShrink: more than half AND at least 3 of the trusted listing gone', () => {
  it.each([
    [10, 6, true],
    [10, 5, false], // exactly half is not more than half
    [4, 3, true],
    [2, 2, false], // a small cluster losing everything is below the 3-instance floor
    [100, 40, false],
    [0, 0, false],
  ])('%i trusted, %i gone → %s', (trusted, lost, sharp) => {
    expect(isSharpShrink(trusted, lost, DefaultShrinkRule)).toBe(sharp);
  });
});

describe('judgeListingShrink', () => {
  it('acts on the first listing it sees and remembers it', () => {
    const verdict = judgeListingShrink(fresh, listed(...range(10)));
    expect(verdict.kind).toBe('act');
    expect(verdict.memory.trusted?.size).toBe(10);
  });

  it('waits on a sharp shrink, then acts when the next listing confirms it', () => {
    const first = judgeListingShrink(fresh, listed(...range(10)));
    const shrunk = judgeListingShrink(first.memory, listed(0, 1, 2));
    expect(shrunk).toMatchObject({ kind: 'await-confirmation', lost: 7, trustedCount: 10 });
    expect(shrunk.memory.trusted?.size).toBe(10); // the trusted listing is kept until the shrink is confirmed
    const confirmed = judgeListingShrink(shrunk.memory, listed(0, 1, 2));
    expect(confirmed.kind).toBe('act');
    expect(confirmed.memory).toEqual({ trusted: new Set(listed(0, 1, 2).map((i) => i.providerID)), awaitingConfirmation: false });
  });

  it('a short listing followed by a full one never acts on the short one', () => {
    const first = judgeListingShrink(fresh, listed(...range(8)));
    const glitch = judgeListingShrink(first.memory, []);
    expect(glitch.kind).toBe('await-confirmation');
    const healed = judgeListingShrink(glitch.memory, listed(...range(8)));
    expect(healed.kind).toBe('act');
    expect(healed.memory.trusted?.size).toBe(8);
  });

  it('instances garbage collection deleted itself are no shrink on the next pass', () => {
    const first = judgeListingShrink(fresh, listed(...range(6)));
    const memory = forgetDeleted(
      first.memory,
      listed(1, 2, 3, 4).map((i) => i.providerID),
    );
    expect(judgeListingShrink(memory, listed(0, 5)).kind).toBe('act');
  });

  it('a gradual scale-down is acted on pass after pass', () => {
    let memory = judgeListingShrink(fresh, listed(...range(10))).memory;
    for (const size of [8, 6, 4, 3, 2, 1]) {
      const verdict = judgeListingShrink(memory, listed(...range(size)));
      expect(verdict.kind).toBe('act');
      memory = verdict.memory;
    }
  });

  it('never acts on a sharp shrink that was not seen on the pass before', () => {
    const ids = fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 30 });
    fc.assert(
      fc.property(ids, ids, (before, after) => {
        const trusted = judgeListingShrink(fresh, listed(...before)).memory;
        const verdict = judgeListingShrink(trusted, listed(...after));
        const lost = before.filter((id) => !after.includes(id)).length;
        expect(verdict.kind === 'await-confirmation').toBe(isSharpShrink(before.length, lost, DefaultShrinkRule));
      }),
    );
  });
});
