/**
 * How much sooner the provisioner hears of an unschedulable pod through the extender than through the pod's
 * PodScheduled condition. The real provisioning and lifecycle controllers run against the simulated cluster with
 * the fake cloud provider; each round creates a pod that fits no existing node and times, from its creation:
 * - signal: the first notice the provisioner gets — the extender's "no node left" (filter) in extender mode,
 *   the pending-pod source delivering the pod with PodScheduled=False/Unschedulable in condition mode;
 * - create: the CloudProvider.create call for it (the batch idle window, IDLE_MS, sits between the two).
 * Both modes keep the condition path (production does too); in extender mode the batch opens at the filter.
 * kube-scheduler (and its simulator here) calls extenders only with the nodes its in-tree filters left: when a pod
 * fits no node at all, the extender is never asked, and the condition is the signal in both modes. The extender's
 * signal fires when it removes the last feasible nodes itself (nodes being disrupted or terminated).
 * Run: npm run bench:signal   (ROUNDS=… IDLE_MS=… to change)
 */
import type { V1Pod } from '@kubernetes/client-node';
import { Resources } from '../src/kube/index.js';
import { nodePool, pod, startProvisioningBed } from '../test/integration/provisioning/harness.js';

const rounds = Number(process.env.ROUNDS ?? 15);
const idleMs = Number(process.env.IDLE_MS ?? 1_000);

interface Round {
  signal: number;
  create: number;
}

function unschedulable(p: V1Pod): boolean {
  return (p.status?.conditions ?? []).some((c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable');
}

async function waitFor(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 2));
}

async function runMode(mode: 'extender' | 'condition'): Promise<Round[]> {
  const firstSignal = new Map<string, number>();
  const note = (key: string): void => {
    if (!firstSignal.has(key)) firstSignal.set(key, performance.now());
  };
  const bed = await startProvisioningBed({
    provisioning: { idleMs, maxMs: 10_000, resyncIntervalMs: 10_000 },
    ...(mode === 'extender'
      ? { extender: { onNeedsCapacity: note } }
      : { onPendingPodDelivered: (p: V1Pod) => unschedulable(p) && note(`default/${p.metadata?.name ?? ''}`) }),
  });
  const createdAt: number[] = [];
  const create = bed.provider.create.bind(bed.provider);
  bed.provider.create = async (claim) => {
    createdAt.push(performance.now());
    return create(claim);
  };
  try {
    await bed.kube.create(Resources.NodePool, nodePool('default'));
    const out: Round[] = [];
    for (let i = 0; i < rounds; i++) {
      const before = createdAt.length;
      const name = `${mode}-${i}`;
      const t0 = performance.now();
      // 1.5 CPU: one per m-2 node (1.8 CPU allocatable), so every pod needs a new NodeClaim.
      await bed.kube.create(Resources.Pod, pod(name, '1500m'));
      await waitFor(() => createdAt.length > before);
      out.push({ signal: (firstSignal.get(`default/${name}`) ?? NaN) - t0, create: (createdAt[before] as number) - t0 });
      await waitFor(async () => (await bed.pods()).every((p) => p.status?.phase === 'Running'));
    }
    return out;
  } finally {
    await bed.close();
  }
}

function stats(values: number[]): string {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  if (sorted.length === 0) return `none in ${values.length} rounds`;
  return `median ${at(0.5).toFixed(0)} ms  p90 ${at(0.9).toFixed(0)} ms  max ${(sorted.at(-1) ?? NaN).toFixed(0)} ms${sorted.length < values.length ? ` (${values.length - sorted.length} rounds without one)` : ''}`;
}

console.log(`pod created → provisioner's first signal → CloudProvider.create; ${rounds} rounds per mode, batch idle ${idleMs} ms`);
for (const mode of ['condition', 'extender'] as const) {
  const result = await runMode(mode);
  console.log(`${mode.padEnd(9)}  ${mode === 'extender' ? 'extender signal' : 'condition seen '}: ${stats(result.map((r) => r.signal))}`);
  console.log(`${''.padEnd(9)}  create call    : ${stats(result.map((r) => r.create))}`);
}
console.log('(a pod that fits no node is never sent to extenders: kube-scheduler stops before them when its own filters leave no node)');
