// The flood of the issue against the default budget: 700 concurrent 1 MiB bodies on each request port of the real
// `karpenter-eu run` under the chart's heap limit. Prints the process's resident memory before and at its peak.
// Run: npm run chaos:flood   (builds first and floods the build, as the image runs it; FLOOD_FROM=source floods
// the sources through tsx; FLOOD_REQUESTS, FLOOD_BODY_KIB to change the flood)
import { describe, expect, it } from 'vitest';
import { ProbeFailureThreshold, runFlood } from './harness/flood-scenario.js';

const requests = Number(process.env.FLOOD_REQUESTS ?? 700);
const bodyBytes = Number(process.env.FLOOD_BODY_KIB ?? 1024) * 1024;
const fromBuild = process.env.FLOOD_FROM !== 'source';

describe('the flood of the issue against the default budget', () => {
  it(`${requests} concurrent bodies on each port: the process stays up and reconciles`, async () => {
    const report = await runFlood({ requests, bodyBytes, fromBuild });
    console.log(
      JSON.stringify({
        requests,
        bodyBytes,
        from: fromBuild ? 'build' : 'source',
        alive: report.alive,
        rssBeforeMiB: report.rssBeforeMiB,
        peakRssMiB: report.peakRssMiB,
        webhook: report.webhook.statuses,
        extender: report.extender.statuses,
        healthz: report.healthz,
        convergedAfterMs: report.convergedAfterMs,
        notConverged: report.notConverged,
      }),
    );
    expect(report.alive).toBe(true);
    expect(report.webhook.statuses[429]).toBeGreaterThan(0);
    expect(report.extender.statuses[429]).toBeGreaterThan(0);
    expect(report.healthz.statuses[200]).toBeGreaterThan(0);
    expect(report.healthz.longestFailureRun).toBeLessThan(ProbeFailureThreshold);
    expect(report.convergedAfterMs).toBeDefined();
  });
});
