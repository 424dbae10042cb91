// The demo scenario on Outscale alone (`karpenter-eu demo --cloud outscale`): the real operator against the
// simulated cluster and the Outscale emulator — VMs launched through the signed API, joined as Nodes, packed,
// consolidated and replaced on drift. Steps that need another cloud (the GPU pod on Scaleway) are skipped.
import { describe, expect, it } from 'vitest';
import { defaultControllers } from '../../src/operator/default-controllers.js';
import { runDemo } from '../../src/testbed/demo/run-demo.js';
import { SystemClock } from '../../src/util/clock.js';
import { silentLogger } from '../../src/util/logger.js';

describe('karpenter-eu demo --cloud outscale', () => {
  it('plays every Outscale step and ends with Outscale nodes only', { timeout: 170_000 }, async () => {
    let output = '';
    const { summary } = await runDemo({ clouds: ['outscale'], clock: new SystemClock(), logger: silentLogger, controllers: defaultControllers, write: (text) => (output += text) });

    expect(summary.steps.map((s) => `${s.id}:${s.status}`), output).toEqual([
      'install:passed',
      'reject:passed',
      'scale-up:passed',
      'flavors:passed',
      'zone-spread:passed',
      'gpu:skipped',
      'consolidation:passed',
      'drift:passed',
    ]);
    expect(summary.ok).toBe(true);
    expect(summary.nodes.length).toBeGreaterThan(0);
    expect(summary.nodes.every((n) => n.cloud === 'outscale' && n.instanceType && n.zone && n.pricePerHour !== undefined), output).toBe(true);
    const reasons = new Set(summary.nodes.filter((n) => n.terminatedInStep).map((n) => n.reason));
    expect(reasons).toContain('drifted');
    expect(summary.finalHourlyCost).toBeLessThan(summary.peakHourlyCost);
  });
});
