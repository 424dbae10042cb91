// Kill points and faults that still break an invariant on this branch (each names the violation it finds).
// Run with `npm run chaos:holes`; once the fixes land, move the passing ones into the default run
// (remove them from Holes in harness/kill-points.ts).
import { describe, expect, it } from 'vitest';
import { HoleKillPoints } from './harness/kill-points.js';
import { killPointName, runKillPoint } from './harness/kill-scenario.js';
import { holeScenarios } from './harness/hole-scenarios.js';

describe('SIGKILL at a cloud call, then restart (holes)', () => {
  it.concurrent.each(HoleKillPoints.map((p) => [killPointName(p), p] as const))('%s: converges with every invariant holding', { timeout: 300_000 }, async (_name, point) => {
    const outcome = await runKillPoint(point);
    expect(outcome.violations).toEqual([]);
  });
});

describe('lying and lagging clouds (holes)', () => {
  it.concurrent.each(holeScenarios.map((s) => [s.name, s] as const))('%s', { timeout: 300_000 }, async (_name, scenario) => {
    expect(await scenario.run()).toEqual([]);
  });
});
