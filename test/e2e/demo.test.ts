// The demo scenario end to end (the function `karpenter-eu demo` calls, not a subprocess): the real operator
// against the simulated cluster and the three cloud emulators at once (as `make demo` runs it), every step
// passing, and a summary that adds up.
import { describe, expect, it } from 'vitest';
import { DemoClouds } from '../../src/testbed/demo/environment.js';
import { playDemo, stepsPassed } from './demo-harness.js';

describe('karpenter-eu demo', () => {
  it('plays every step and ends with a summary of nodes, reasons and cost', { timeout: 170_000 }, async () => {
    const { summary, output, steps } = await playDemo(DemoClouds);

    // The timeline is the failure message: it says which expectation of which step was not met.
    expect(steps, output).toEqual(stepsPassed());
    expect(summary.ok).toBe(true);
    expect(output).toContain('admission webhook "validation.karpenter-eu.io" denied the request');
    expect(output).toContain('demo passed');

    const created = summary.nodes.filter((n) => n.createdInStep === 'scale-up');
    expect(created.length).toBeGreaterThan(0);
    expect(summary.nodes.every((n) => n.instanceType && n.zone && n.pricePerHour !== undefined)).toBe(true);
    const gpu = summary.nodes.filter((n) => n.nodePool === 'scaleway-gpu');
    expect(gpu.length).toBeGreaterThan(0);
    expect(gpu.every((n) => n.instanceType?.startsWith('L4'))).toBe(true);

    const reasons = new Set(summary.nodes.filter((n) => n.terminatedInStep).map((n) => n.reason));
    expect(reasons).toContain('empty');
    expect(reasons).toContain('drifted');
    expect([...reasons].every((r) => r === 'empty' || r === 'underutilized' || r === 'drifted')).toBe(true);
    expect(summary.finalHourlyCost).toBeLessThan(summary.peakHourlyCost);
    expect(summary.nodes.filter((n) => !n.terminatedInStep).length).toBeGreaterThan(0);
    // Scaleway is the cheapest for the small pods and the GPU; the large pods and the zone spread go to OVH,
    // whose NodeClass the zone-spread deployment selects (Outscale has its own run: demo-outscale.test.ts).
    const clouds = new Set(summary.nodes.map((n) => n.cloud));
    expect([...clouds].sort(), output).toEqual(['ovhcloud', 'scaleway']);
    // The spread step checked pods per zone; the OVH nodes behind it cover the region's three zones.
    const ovhZones = new Set(summary.nodes.filter((n) => n.cloud === 'ovhcloud').map((n) => n.zone));
    expect([...ovhZones].sort(), output).toEqual(['eu-west-par-a', 'eu-west-par-b', 'eu-west-par-c']);
  });
});
