// The rest of the kill matrix that holds on this branch (the short run in make test takes one launch and one
// deletion point per cloud): `npm run chaos:kills`.
import { describe, expect, it } from 'vitest';
import { LongKillPoints } from './harness/kill-points.js';
import { killPointName, runKillPoint } from './harness/kill-scenario.js';

describe('SIGKILL at a cloud call, then restart (full matrix)', () => {
  it.concurrent.each(LongKillPoints.map((p) => [killPointName(p), p] as const))('%s: converges with every invariant holding', async (_name, point) => {
    const outcome = await runKillPoint(point);
    expect(outcome.violations).toEqual([]);
  });
});
