// The real `karpenter-eu run` under the chart's heap limit (--max-old-space-size=192), both request ports flooded
// at once with ten times the budget of bodies in flight: the excess is answered 429 with Retry-After, the process
// stays up, /healthz answers throughout and the controllers still bring up nodes for a new Deployment. A small
// budget keeps this short; `npm run chaos:flood` floods the default budget with the 700 requests.
import { describe, expect, it } from 'vitest';
import { ProbeFailureThreshold, runFlood } from './harness/flood-scenario.js';

const MiB = 1024 * 1024;

describe('a flood of large requests at ten times the budget', () => {
  it('refuses the excess with 429 and Retry-After; the process, /healthz and the controllers carry on', { timeout: 240_000 }, async () => {
    const report = await runFlood({ requests: 40, bodyBytes: MiB, extraArgs: ['--request-bytes-in-flight=4Mi'] });
    expect(report.alive).toBe(true);
    for (const outcome of [report.webhook, report.extender]) {
      expect(outcome.statuses[429]).toBeGreaterThan(0);
      expect(outcome.retryAfter).toEqual(['1']);
      expect(outcome.refusal).toContain('too many request bytes in flight (at most 4194304 bytes at once on this port)');
      // Whatever was admitted was answered: a denial or a verdict, never a server error.
      expect(Object.keys(outcome.statuses).filter((s) => Number(s) >= 500)).toEqual([]);
    }
    // Answered during the flood, and never failed as often in a row as the chart's liveness probe tolerates.
    expect(report.healthz.statuses[200]).toBeGreaterThan(0);
    expect(report.healthz.longestFailureRun).toBeLessThan(ProbeFailureThreshold);
    expect(report.convergedAfterMs).toBeDefined();
  });
});
