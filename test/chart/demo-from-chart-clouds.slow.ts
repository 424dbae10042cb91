/**
 * `demo --from-chart` on Scaleway and Outscale, and on the three clouds at once (`npm run test:demo-from-chart`):
 * each cloud's guide values in the helm line, the service from the release, every step of the scenario passing.
 * `make test` plays OVHcloud alone (test/chart/demo-from-chart.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { defaultControllers } from '../../src/operator/default-controllers.js';
import type { DemoCloud } from '../../src/testbed/demo/environment.js';
import { runDemo } from '../../src/testbed/demo/run-demo.js';
import { SystemClock } from '../../src/util/clock.js';
import { silentLogger } from '../../src/util/logger.js';
import { stepsPassed } from '../e2e/demo-harness.js';

describe.each<[string, DemoCloud[], string[]]>([
  ['scaleway', ['scaleway'], ['cloud.scaleway.enabled=true', 'controller.clusterName=karpenter-eu-demo']],
  ['outscale', ['outscale'], ['cloud.outscale.enabled=true', 'controller.clusterName=karpenter-eu-demo']],
  ['all three clouds', ['ovhcloud', 'scaleway', 'outscale'], ['ovh.kubeId=', 'cloud.scaleway.enabled=true', 'cloud.outscale.enabled=true']],
])('demo --from-chart on %s', (_name, clouds, setLines) => {
  it('plays every step with the service the release configures', async () => {
    let output = '';
    const { summary } = await runDemo({
      clouds,
      clock: new SystemClock(),
      logger: silentLogger,
      controllers: defaultControllers,
      write: (text) => (output += text),
      fromChart: {},
    });
    const skipped = summary.steps.filter((s) => s.status === 'skipped').map((s) => s.id);
    expect(
      summary.steps.map((s) => `${s.id}:${s.status}`),
      output,
    ).toEqual(stepsPassed(skipped));
    expect(summary.ok).toBe(true);
    for (const line of setLines) expect(output).toContain(`--set ${line}`);
  });
});
