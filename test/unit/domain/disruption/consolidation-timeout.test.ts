import { describe, expect, it } from 'vitest';
import {
  evaluate,
  MultiNodeConsolidationTimeoutMs,
  searchMultiNodeConsolidation,
  searchSingleNodeConsolidation,
  SingleNodeConsolidationTimeoutMs,
} from '../../../../src/domain/disruption/index.js';
import { clusterNode, disruptionInput, type instanceType, pods, types } from './fixtures.js';

const [, s4] = types() as [ReturnType<typeof instanceType>, ReturnType<typeof instanceType>];

/** A clock that moves `stepMs` at each reading: the search reads it once to start, then once per simulation. */
function steppingClock(stepMs: number): { now: () => number; reads: () => number } {
  let t = 0;
  let reads = 0;
  return {
    now: () => {
      reads++;
      return (t += stepMs);
    },
    reads: () => reads,
  };
}

// Four under-used nodes: the binary search over them takes two simulations.
const mergeable = () => disruptionInput(['a', 'b', 'c', 'd'].map((n) => clusterNode(n, s4, pods(n, 1, '1'))));
// Full nodes: single-node tries each in turn and finds nothing.
const full = () => disruptionInput(['a', 'b', 'c'].map((n) => clusterNode(n, s4, pods(n, 7, '500m'))));

describe('consolidation search timeouts (upstream: multi-node 1 min, single-node 3 min)', () => {
  it('multi-node stops once a minute has passed on the passed clock and keeps the best command found so far', () => {
    const whole = searchMultiNodeConsolidation(mergeable());
    expect(whole.timedOut).toBe(false);
    // Each reading moves 0.6 min: the first simulation starts 0.6 min in, the second would start 1.2 min in.
    const clock = steppingClock(0.6 * MultiNodeConsolidationTimeoutMs);
    const cut = searchMultiNodeConsolidation(mergeable(), { now: clock.now });
    expect(cut.timedOut).toBe(true);
    expect(clock.reads()).toBe(3);
    expect(cut.command?.consolidationType).toBe('multi');
    // One simulation ran (the first prefix, 3 of 4 candidates); the whole search went further.
    expect(cut.command?.candidates).toHaveLength(3);
    expect(whole.command?.candidates.length).toBeGreaterThan(0);
  });

  it('single-node gives up with nothing once three minutes have passed', () => {
    expect(searchSingleNodeConsolidation(full())).toEqual({ command: undefined, timedOut: false });
    const clock = steppingClock(SingleNodeConsolidationTimeoutMs / 2 + 1);
    expect(searchSingleNodeConsolidation(full(), { now: clock.now })).toEqual({ command: undefined, timedOut: true });
    // The start, the first candidate, then the second found the time spent.
    expect(clock.reads()).toBe(3);
  });

  it('a clock that does not move never cuts a search', () => {
    const frozen = { now: () => 0 };
    expect(searchMultiNodeConsolidation(mergeable(), frozen)).toEqual(searchMultiNodeConsolidation(mergeable()));
    expect(searchSingleNodeConsolidation(full(), frozen)).toEqual({ command: undefined, timedOut: false });
  });

  it('evaluate reports each search its timeout cut, in the order the methods ran', () => {
    const slow = steppingClock(10 * 60_000);
    expect(evaluate(full(), { now: slow.now })).toMatchObject({ decision: undefined, timeouts: ['multi', 'single'] });
    expect(evaluate(full(), { now: () => 0 })).toMatchObject({ decision: undefined, timeouts: [] });
  });

  it('evaluate times each method it ran with the clock passed in, all four when none acts', () => {
    let t = 0;
    const { ran } = evaluate(full(), { now: () => 0 }, () => (t += 5));
    expect(ran.map((r) => [r.method.labels.reason, r.method.labels.consolidation_type, r.ms])).toEqual([
      ['drifted', '', 5],
      ['empty', 'empty', 5],
      ['underutilized', 'multi', 5],
      ['underutilized', 'single', 5],
    ]);
  });
});
