// What holds on this branch but is too long for make test: the rest of the kill matrix (make test takes one
// point per cloud), the lying/lagging-cloud scenarios and consolidateAfter on every cloud:
// `npm run chaos:long`.
import { describe, expect, it } from 'vitest';
import { LongKillPoints } from './harness/kill-points.js';
import { killPointName, runKillPoint } from './harness/kill-scenario.js';
import { heldScenarios } from './harness/hole-scenarios.js';
import { caseTitle, longCases, runConsolidateAfterCase } from '../integration/disruption/consolidate-after.scenario.js';

describe('SIGKILL at a cloud call, then restart (full matrix)', () => {
  it.concurrent.each(LongKillPoints.map((p) => [killPointName(p), p] as const))(
    '%s: converges with every invariant holding',
    async (_name, point) => {
      const outcome = await runKillPoint(point);
      expect(outcome.violations).toEqual([]);
    },
  );
});

describe('lying and lagging clouds', () => {
  it.concurrent.each(heldScenarios.map((s) => [s.name, s] as const))('%s', async (_name, scenario) => {
    expect(await scenario.run()).toEqual([]);
  });
});

describe.each(longCases)(caseTitle, (c) => {
  it('keeps the emptied node consolidateAfter after its last pod left, then deletes it', () => runConsolidateAfterCase(c));
});
