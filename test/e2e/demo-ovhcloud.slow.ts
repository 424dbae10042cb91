// Behind `npm run test:demo-ovhcloud`: `make test` plays the same OVH scenario, with the same checks, from the chart
// (test/chart/demo-from-chart.test.ts), and the classic path on all clouds (test/e2e/demo.test.ts).
// The demo scenario on OVHcloud alone (`karpenter-eu demo --cloud ovhcloud`): the real operator against the
// simulated cluster and the OVH emulator — MKS node pools scaled through the signed API. Every step runs on
// OVH: the GPU pod lands on an OVH L4 flavor and drift replaces nodes whose pool's immutable settings
// (anti-affinity) no longer match their NodeClass.
import { describe, expect, it } from 'vitest';
import { playDemo, stepsPassed } from './demo-harness.js';

describe('karpenter-eu demo --cloud ovhcloud', () => {
  it('plays every step on OVH, the GPU pod on an L4 flavor and drift of an OVH pool setting included', { timeout: 170_000 }, async () => {
    const { summary, output, steps } = await playDemo(['ovhcloud']);

    expect(steps, output).toEqual(stepsPassed());
    expect(summary.ok).toBe(true);
    expect(
      summary.nodes.every((n) => n.cloud === 'ovhcloud' && n.instanceType && n.zone && n.pricePerHour !== undefined),
      output,
    ).toBe(true);
    const gpu = summary.nodes.filter((n) => n.nodePool === 'gpu');
    expect(
      gpu.map((n) => n.instanceType),
      output,
    ).toEqual(['l4-90']);
    const drifted = summary.nodes.filter((n) => n.terminatedInStep === 'drift' && n.reason === 'drifted');
    expect(drifted.length, output).toBeGreaterThan(0);
    expect(output).toContain('kubectl patch OVHNodeClass/default {"spec":{"antiAffinity":true}}');
    expect(summary.finalHourlyCost).toBeLessThan(summary.peakHourlyCost);
  });
});
