import { appendFileSync } from 'node:fs';
import { it } from 'vitest';
import type { KillPoint } from './harness/kill-scenario.js';
import { killPointName, runKillPoint } from './harness/kill-scenario.js';
const points: KillPoint[] = [
  { cloud: 'scaleway', action: 'deleteVolume', phase: 'delete', when: 'answer', workload: 'pods' },
  { cloud: 'outscale', action: 'DeleteVms', phase: 'delete', when: 'answer', workload: 'gpu' },
  { cloud: 'outscale', action: 'StartVms', phase: 'launch', when: 'answer', workload: 'gpu' },
];
it.concurrent.each(points.map((p) => [killPointName(p), p] as const))('%s', { timeout: 400_000 }, async (name, p) => {
  const t = Date.now();
  try {
    const out = await runKillPoint(p);
    appendFileSync('/tmp/chaos-discover2.txt', `${out.violations.length ? 'FAIL' : 'PASS'} ${Date.now() - t}ms ${name} ${JSON.stringify(out)}\n`);
  } catch (e) {
    appendFileSync('/tmp/chaos-discover2.txt', `FAIL ${Date.now() - t}ms ${name} ${String(e).replace(/\n/g, ' | ')}\n`);
  }
});
