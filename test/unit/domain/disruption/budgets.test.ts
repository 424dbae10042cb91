import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { allowedDisruptions, budgetNodes } from '../../../../src/domain/disruption/budgets.js';
import { apiNodePool } from './fixtures.js';

const monday10 = Date.UTC(2026, 0, 5, 10, 0);
const monday20 = Date.UTC(2026, 0, 5, 20, 0);

describe('budgetNodes', () => {
  it.each([
    ['10%', 10, 1],
    ['10%', 11, 2],
    ['10%', 0, 0],
    ['50%', 3, 2],
    ['100%', 7, 7],
    ['0', 9, 0],
    ['3', 9, 3],
    ['0%', 9, 0],
  ])('%s of %i nodes = %i (percent rounds up)', (nodes, total, expected) => {
    expect(budgetNodes(nodes, total)).toBe(expected);
  });
  it('names the value and what is accepted on a bad value', () => {
    expect(() => budgetNodes('ten', 3)).toThrow(/parsing budget nodes "ten": accepted: a non-negative integer or a percentage/);
  });
});

describe('allowedDisruptions', () => {
  const counts = { total: 10, disrupting: 0 };
  it.each([
    ['default 10% when no budgets', undefined, 'Underutilized', monday10, 1],
    ['minimum over active budgets', [{ nodes: '50%' }, { nodes: '3' }], 'Underutilized', monday10, 3],
    ['budget limited to other reasons is ignored', [{ nodes: '0', reasons: ['Drifted'] }, { nodes: '5' }], 'Empty', monday10, 5],
    ['budget for this reason applies', [{ nodes: '0', reasons: ['Drifted'] }, { nodes: '5' }], 'Drifted', monday10, 0],
    [
      'business-hours window active',
      [{ nodes: '0', schedule: '0 9 * * 1-5', duration: '8h' }, { nodes: '100%' }],
      'Underutilized',
      monday10,
      0,
    ],
  ] as const)('%s', (_name, budgets, reason, now, expected) => {
    const pool = apiNodePool('p', budgets === undefined ? {} : { budgets: budgets as never });
    if (budgets === undefined) delete (pool.spec.disruption as { budgets?: unknown }).budgets;
    const got = allowedDisruptions(pool, reason, counts, now);
    expect(got.allowed).toBe(expected);
    expect(got.errors).toEqual([]);
  });

  it('a nodes:"0" window blocks during business hours and not after', () => {
    const pool = apiNodePool('p', { budgets: [{ nodes: '0', schedule: '0 9 * * 1-5', duration: '8h' }, { nodes: '100%' }] });
    expect(allowedDisruptions(pool, 'Underutilized', counts, monday10).allowed).toBe(0);
    expect(allowedDisruptions(pool, 'Underutilized', counts, monday20).allowed).toBe(10);
  });

  it('subtracts nodes already disrupting, floored at 0', () => {
    const pool = apiNodePool('p', { budgets: [{ nodes: '3' }] });
    expect(allowedDisruptions(pool, 'Empty', { total: 10, disrupting: 2 }, monday10).allowed).toBe(1);
    expect(allowedDisruptions(pool, 'Empty', { total: 10, disrupting: 5 }, monday10).allowed).toBe(0);
  });

  it('a bad cron fails closed with a reason', () => {
    const pool = apiNodePool('p', { budgets: [{ nodes: '100%', schedule: '99 * * * *', duration: '1h' }] });
    const got = allowedDisruptions(pool, 'Underutilized', counts, monday10);
    expect(got.allowed).toBe(0);
    expect(got.errors[0]).toMatch(/NodePool p budget 1: parsing budget schedule "99 \* \* \* \*": 99 is out of range 0-59/);
  });

  it('never exceeds any applicable active budget (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.integer({ min: 0, max: 20 }).map(String),
            fc.integer({ min: 0, max: 100 }).map((n) => `${n}%`),
          ),
          { minLength: 1, maxLength: 4 },
        ),
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 0, max: 10 }),
        (nodes, total, disrupting) => {
          const pool = apiNodePool('p', { budgets: nodes.map((n) => ({ nodes: n })) });
          const got = allowedDisruptions(pool, 'Underutilized', { total, disrupting }, monday10).allowed;
          expect(got).toBeGreaterThanOrEqual(0);
          for (const n of nodes) expect(got).toBeLessThanOrEqual(budgetNodes(n, total));
        },
      ),
    );
  });
});
