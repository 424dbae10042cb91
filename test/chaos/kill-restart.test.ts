// The real `karpenter-eu run`, in a child process, SIGKILLed at cloud calls of a launch and of a deletion on
// each cloud and restarted: every pod runs, no duplicate, no leak, no wrong deletion, every NodeClaim's instance
// powered on and joined. The kill points that still find a hole are in holes.chaos.ts (`npm run chaos:holes`);
// the whole matrix is in harness/kill-points.ts.
import { describe, expect, it } from 'vitest';
import { HoldingKillPoints } from './harness/kill-points.js';
import { killPointName, runKillPoint } from './harness/kill-scenario.js';

describe('SIGKILL at a cloud call, then restart', () => {
  it.concurrent.each(HoldingKillPoints.map((p) => [killPointName(p), p] as const))('%s: converges with every invariant holding', { timeout: 300_000 }, async (_name, point) => {
    const outcome = await runKillPoint(point);
    expect(outcome.violations).toEqual([]);
  });
});
