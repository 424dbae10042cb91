// The real `karpenter-eu run`, in a child process, SIGKILLed at cloud calls of a launch and of a deletion on
// each cloud and restarted: every pod runs, no duplicate, no leak, no wrong deletion, every NodeClaim's instance
// powered on and joined. One point per cloud (launches and a deletion); the rest of the matrix
// (harness/kill-points.ts) is `npm run chaos:long`, the points that still find a hole `npm run chaos:holes`.
import { describe, expect, it } from 'vitest';
import { ShortKillPoints } from './harness/kill-points.js';
import { killPointName, runKillPoint } from './harness/kill-scenario.js';

describe('SIGKILL at a cloud call, then restart', () => {
  it.concurrent.each(ShortKillPoints.map((p) => [killPointName(p), p] as const))(
    '%s: converges with every invariant holding',
    { timeout: 300_000 },
    async (_name, point) => {
      const outcome = await runKillPoint(point);
      expect(outcome.violations).toEqual([]);
    },
  );
});
