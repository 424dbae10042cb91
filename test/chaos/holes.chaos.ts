// Kill points and scenarios that still break an invariant (each names the violation it finds). Run with
// `npm run chaos:holes`; once a fix lands, its entry moves to the long or default run (Holes in
// harness/kill-points.ts, holeScenarios in harness/hole-scenarios.ts).
import { describe, expect, it } from 'vitest';
import { HoleKillPoints } from './harness/kill-points.js';
import { killPointName, runKillPoint } from './harness/kill-scenario.js';
import { holeScenarios } from './harness/hole-scenarios.js';

if (HoleKillPoints.length === 0 && holeScenarios.length === 0) it.todo('no kill point or scenario finds a hole today');

if (HoleKillPoints.length > 0) {
  describe('SIGKILL at a cloud call, then restart (holes)', () => {
    it.concurrent.each(HoleKillPoints.map((p) => [killPointName(p), p] as const))(
      '%s: converges with every invariant holding',
      { timeout: 300_000 },
      async (_name, point) => {
        const outcome = await runKillPoint(point);
        expect(outcome.violations).toEqual([]);
      },
    );
  });
}

if (holeScenarios.length > 0) {
  describe('lying and lagging clouds (holes)', () => {
    it.concurrent.each(holeScenarios.map((s) => [s.name, s] as const))('%s', { timeout: 300_000 }, async (_name, scenario) => {
      expect(await scenario.run()).toEqual([]);
    });
  });
}
