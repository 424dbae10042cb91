import { expect, it } from 'vitest';
import { runKillPoint } from './harness/kill-scenario.js';
it('smoke', { timeout: 120_000 }, async () => {
  const t = Date.now();
  const out = await runKillPoint({ cloud: 'outscale', action: 'CreateVms', phase: 'launch', when: 'answer', workload: 'pods' });
  console.log(Date.now() - t, JSON.stringify(out));
  expect(out.violations).toEqual([]);
});
