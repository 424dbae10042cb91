/**
 * Pending pod → CloudProvider.create latency on the local simulated cluster: the real provisioning and
 * lifecycle controllers with the fake cloud provider, the scheduler simulator marking pods Unschedulable, the
 * kubelet simulator booting the instances. Each round creates one pod that fits no existing node and times
 * its creation to the create call; the batch idle window (default 1 s, as upstream) dominates.
 * Run: npm run bench:provisioning   (ROUNDS=… IDLE_MS=… MAX_MS=… to change)
 */
import { Resources } from '../src/kube/index.js';
import { nodePool, pod, startProvisioningBed } from '../test/integration/provisioning/harness.js';

const rounds = Number(process.env.ROUNDS ?? 15);
const idleMs = Number(process.env.IDLE_MS ?? 1_000);
const maxMs = Number(process.env.MAX_MS ?? 10_000);

const bed = await startProvisioningBed({ provisioning: { idleMs, maxMs, resyncIntervalMs: 10_000 } });
const createdAt: number[] = [];
const original = bed.provider.create.bind(bed.provider);
bed.provider.create = async (claim) => {
  createdAt.push(performance.now());
  return original(claim);
};

async function waitFor(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 5));
}

await bed.kube.create(Resources.NodePool, nodePool('default'));
const latencies: number[] = [];
for (let i = 0; i < rounds; i++) {
  const before = createdAt.length;
  const t0 = performance.now();
  // 1.5 CPU: one per m-2 node (1.8 CPU allocatable), so every pod needs a new NodeClaim.
  await bed.kube.create(Resources.Pod, pod(`bench-${i}`, '1500m'));
  await waitFor(() => createdAt.length > before);
  latencies.push((createdAt[before] as number) - t0);
  await waitFor(async () => (await bed.pods()).every((p) => p.status?.phase === 'Running'));
}
await bed.close();

const sorted = [...latencies].sort((a, b) => a - b);
const pick = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
const median =
  sorted.length % 2 === 1 ? pick(0.5) : ((sorted[sorted.length / 2 - 1] as number) + (sorted[sorted.length / 2] as number)) / 2;
console.log(`pending pod → CloudProvider.create, ${rounds} rounds, batch idle ${idleMs} ms / max ${maxMs} ms`);
console.log(
  `  median ${median.toFixed(0)} ms   min ${(sorted[0] ?? 0).toFixed(0)} ms   p90 ${pick(0.9).toFixed(0)} ms   max ${(sorted[sorted.length - 1] ?? 0).toFixed(0)} ms`,
);
console.log(
  `  of which the batch idle window: ${idleMs} ms; the rest is detection (scheduler marks Unschedulable, watch) + snapshot + simulation + NodeClaim create + launch`,
);
console.log(`  target: median < 1500 ms → ${median < 1500 ? 'met' : 'MISSED'}`);
