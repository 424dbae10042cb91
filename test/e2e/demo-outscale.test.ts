// The demo scenario on Outscale alone (`karpenter-eu demo --cloud outscale`): the real operator against the
// simulated cluster and the Outscale emulator — VMs launched through the signed API, joined as Nodes, packed,
// consolidated and replaced on drift. Steps that need another cloud (the GPU pod on Scaleway) are skipped.
import { describe, expect, it } from 'vitest';
import { playDemo, stepsPassed } from './demo-harness.js';

describe('karpenter-eu demo --cloud outscale', () => {
  it('plays every Outscale step and ends with Outscale nodes only', { timeout: 170_000 }, async () => {
    const { summary, output, steps } = await playDemo(['outscale']);

    expect(steps, output).toEqual(stepsPassed(['gpu']));
    expect(summary.ok).toBe(true);
    expect(summary.nodes.length).toBeGreaterThan(0);
    expect(
      summary.nodes.every((n) => n.cloud === 'outscale' && n.instanceType && n.zone && n.pricePerHour !== undefined),
      output,
    ).toBe(true);
    const reasons = new Set(summary.nodes.filter((n) => n.terminatedInStep).map((n) => n.reason));
    expect(reasons).toContain('drifted');
    expect(summary.finalHourlyCost).toBeLessThan(summary.peakHourlyCost);
  });
});
