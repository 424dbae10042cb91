/**
 * `npm run bench:scheduling`: the scheduling simulation on upstream Karpenter's benchmark workload
 * (scheduling-workload.ts) at 100 … 20,000 pods — pods/s, nodes, total price, peak RSS, cost against the
 * first-fit-decreasing baseline — and on small instances against the exact optimum (scheduling-optimum.ts).
 * Each size is solved once to warm the JIT, then timed (best of RUNS).
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { InstanceType } from '../src/domain/instancetypes/types.js';
import { solve } from '../src/domain/scheduling/index.js';
import { optimumPrice, type SmallPod } from './scheduling-optimum.js';
import { seededRandom } from '../src/util/seeded-random.js';
import {
  benchDraObjects,
  benchGpuInstanceTypes,
  benchInstanceTypes,
  benchNodePool,
  type GpuRequest,
  makeDiversePods,
  makeGpuPods,
} from './scheduling-workload.js';

const SIZES = [100, 500, 1000, 2000, 5000, 10000, 20000];
const RUNS = 3;
const MiB = 2 ** 20;
const GiB = 2 ** 30;

function timeSolve(
  pods: V1Pod[],
  types: InstanceType[],
  optimize: boolean,
): { ms: number; cpuMs: number; result: ReturnType<typeof solve> } {
  let best = { ms: Infinity, cpuMs: Infinity, result: solve({ pods, nodePools: [benchNodePool(types)], options: { optimize } }) };
  for (let i = 0; i < RUNS; i++) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const result = solve({ pods, nodePools: [benchNodePool(types)], options: { optimize } });
    const ms = performance.now() - t0;
    const used = process.cpuUsage(cpu0);
    if (ms < best.ms) best = { ms, cpuMs: (used.user + used.system) / 1000, result };
  }
  return best;
}

function workloadBench(): void {
  const types = benchInstanceTypes();
  console.log('upstream workload: 400 instance types x 5 offerings, 5 pod kinds, seed 42');
  console.log('pods    ms(wall)  ms(cpu)  pods/s    nodes  EUR/h      FFD EUR/h  vs FFD   unplaced  peak RSS');
  for (const n of SIZES) {
    const pods = makeDiversePods(n);
    const plan = timeSolve(pods, types, true);
    const ffd = solve({ pods, nodePools: [benchNodePool(types)], options: { optimize: false } });
    const price = plan.result.totalPricePerHour;
    const vsFfd = ((price / ffd.totalPricePerHour - 1) * 100).toFixed(2) + '%';
    const rss = (process.resourceUsage().maxRSS / 1024).toFixed(0) + ' MiB';
    console.log(
      [
        String(n).padEnd(7),
        plan.ms.toFixed(0).padStart(8),
        plan.cpuMs.toFixed(0).padStart(8),
        String(Math.round(n / (plan.ms / 1000))).padStart(8),
        String(plan.result.newNodeClaims.length).padStart(6),
        price.toFixed(2).padStart(9),
        ffd.totalPricePerHour.toFixed(2).padStart(10),
        vsFfd.padStart(7),
        String(plan.result.unschedulable.length).padStart(9),
        rss.padStart(9),
      ].join('  '),
    );
  }
}

/** Flavors with a non-linear price list (as real catalogs: small ones cost more per core). */
function smallFlavors(): InstanceType[] {
  const shapes: [string, number, number, number][] = [
    ['f-1', 1, 2, 0.012],
    ['f-2', 2, 4, 0.022],
    ['f-4', 4, 8, 0.04],
    ['f-8', 8, 32, 0.09],
  ];
  return shapes.map(([name, cpu, mem, price]) => ({
    name,
    cloud: 'ovhcloud',
    region: 'test',
    labels: { 'node.kubernetes.io/instance-type': name },
    capacity: { cpu: cpu * 1000, memory: mem * GiB, pods: 110 },
    allocatable: { cpu: cpu * 1000 - 100, memory: mem * GiB - 256 * MiB, pods: 110 },
    offerings: [{ zone: 'z-a', capacityType: 'on-demand', pricePerHour: price, available: true }],
  }));
}

function optimumBench(): void {
  const random = seededRandom(7);
  const types = smallFlavors();
  const cpus = [100, 250, 500, 1000, 1500, 3000];
  const mems = [128, 256, 512, 1024, 2048, 4096];
  let worst = 0;
  let sumGap = 0;
  let aboveFfd = 0;
  const instances = 200;
  for (let k = 0; k < instances; k++) {
    const n = 4 + Math.floor(random() * 9); // 4..12 pods
    const small: SmallPod[] = Array.from({ length: n }, () => ({
      cpu: cpus[Math.floor(random() * cpus.length)] as number,
      memory: (mems[Math.floor(random() * mems.length)] as number) * MiB,
    }));
    const pods: V1Pod[] = small.map((p, i) => ({
      metadata: { name: `p${i}`, namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: `${p.cpu}m`, memory: `${p.memory / MiB}Mi` } } }] },
    }));
    const pool = { name: 'default', nodeClassRef: { kind: 'OVHNodeClass', name: 'default' }, requirements: [], instanceTypes: types };
    const plan = solve({ pods, nodePools: [pool] }).totalPricePerHour;
    const ffd = solve({ pods, nodePools: [pool], options: { optimize: false } }).totalPricePerHour;
    const optimum = optimumPrice(small, types);
    const gap = plan / optimum - 1;
    worst = Math.max(worst, gap);
    sumGap += gap;
    if (plan > ffd + 1e-9) aboveFfd++;
  }
  console.log(`\nexact optimum (${instances} instances of 4-12 plain pods, 4 flavors, brute force over set partitions):`);
  console.log(
    `  mean gap ${((sumGap / instances) * 100).toFixed(2)}%, worst gap ${(worst * 100).toFixed(2)}%, plans above FFD: ${aboveFfd}`,
  );
}

/** The same workload with 10 % of the pods asking one GPU, by `nvidia.com/gpu` or through a ResourceClaimTemplate. */
function gpuBench(): void {
  const types = benchGpuInstanceTypes();
  console.log('\nGPU variant: the workload above + 8 GPU flavors, every tenth pod asks one GPU (best of RUNS, ms wall)');
  console.log('pods    nvidia.com/gpu  resource claim  ratio   unplaced (ext/claim)  GPU nodes (ext/claim)');
  for (const n of SIZES.filter((s) => s <= 5000)) {
    const timed = (request: GpuRequest): { ms: number; unplaced: number; gpuNodes: number } => {
      const pods = makeGpuPods(n, request);
      const input = { pods, nodePools: [benchNodePool(types)], ...(request === 'resource-claim' ? { dra: benchDraObjects } : {}) };
      solve(input);
      let best = { ms: Infinity, unplaced: 0, gpuNodes: 0 };
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        const result = solve(input);
        const ms = performance.now() - t0;
        const gpuNodes = result.newNodeClaims.filter((c) => types.find((t) => t.name === c.instanceType)?.gpu).length;
        if (ms < best.ms) best = { ms, unplaced: result.unschedulable.length, gpuNodes };
      }
      return best;
    };
    const ext = timed('extended-resource');
    const claim = timed('resource-claim');
    console.log(
      [
        String(n).padEnd(7),
        ext.ms.toFixed(0).padStart(14),
        claim.ms.toFixed(0).padStart(14),
        (claim.ms / ext.ms).toFixed(2).padStart(5) + 'x',
        `${ext.unplaced}/${claim.unplaced}`.padStart(10),
        `${ext.gpuNodes}/${claim.gpuNodes}`.padStart(21),
      ].join('  '),
    );
  }
}

const only = process.argv[2];
if (!only || only === 'workload') workloadBench();
if (!only || only === 'optimum') optimumBench();
if (!only || only === 'gpu') gpuBench();
