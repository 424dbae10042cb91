/**
 * The whole simulated cluster at scale: 1,000 cloud instances become Ready Nodes through the kubelet
 * simulator, then 10,000 pods are created over HTTP and the scheduler simulator binds them all and the kubelet
 * runs them. Prints the time of each phase, the scheduler's throughput and the process memory.
 * Run: npm run bench:cluster   (NODES=… PODS=… to change the scale)
 */
import * as k8s from '@kubernetes/client-node';
import { StaticInstanceSource, ovhProviderID, startSimulatedCluster } from '../src/testbed/cluster/index.js';

const nodeCount = Number(process.env.NODES ?? 1_000);
const podCount = Number(process.env.PODS ?? 10_000);
const concurrency = 32;
const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

async function inParallel(total: number, work: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await work(next++);
    }),
  );
}

async function waitFor(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
}

const baseline = process.memoryUsage();
const source = new StaticInstanceSource('ovhcloud');
const zones = ['eu-west-gra-a', 'eu-west-gra-b', 'eu-west-gra-c'];
for (let i = 0; i < nodeCount; i++) {
  source.add({
    cloud: 'ovhcloud',
    nodeName: `node-${i}`,
    providerID: ovhProviderID(`inst-${i}`),
    instanceType: 'b3-16',
    region: 'GRA',
    zone: zones[i % 3] as string,
    arch: 'amd64',
    capacity: { cpu: '4', memory: '16Gi', pods: '110' },
    labels: {},
    taints: [],
    bootedAt: 0,
    internalIP: `10.1.${Math.floor(i / 250)}.${i % 250}`,
  });
}
const t0 = performance.now();
const cluster = await startSimulatedCluster({
  cloudSources: [source],
  apiServer: { watchCacheSize: 100_000 },
  kubelet: { readyDelayMs: 0, podStartDelayMs: 0, pollIntervalMs: 500 },
});
const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
const progress = setInterval(() => {
  console.error(
    `  … ${Math.round(performance.now() - t0)} ms: nodes ${cluster.scheduler.nodes.size}, pods seen ${cluster.scheduler.pods.size}, bound ${cluster.scheduler.stats.scheduled}`,
  );
}, 5_000);
await waitFor(() => {
  let ready = 0;
  for (const n of cluster.scheduler.nodes.values())
    if (!n.spec?.taints?.length && n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) ready++;
  return ready === nodeCount;
});
const tNodes = performance.now();

await inParallel(podCount, (i) =>
  core.createNamespacedPod({
    namespace: 'default',
    body: {
      metadata: { name: `pod-${i}`, labels: { app: `app-${i % 50}` } },
      spec: { containers: [{ name: 'app', image: 'pause', resources: { requests: { cpu: '100m', memory: '128Mi' } } }] },
    },
  }),
);
const tCreated = performance.now();
await waitFor(() => cluster.scheduler.stats.scheduled >= podCount);
const tBound = performance.now();
await waitFor(() => {
  let running = 0;
  for (const p of cluster.kubelet.pods.values()) if (p.status?.phase === 'Running') running++;
  return running === podCount;
});
const tRunning = performance.now();
const memory = process.memoryUsage();

console.log(`nodes ${nodeCount}, pods ${podCount}`);
console.log(`nodes registered and Ready (seen by the scheduler): ${seconds(tNodes - t0)}`);
console.log(`pods created over HTTP: ${seconds(tCreated - tNodes)}`);
console.log(
  `all pods bound: ${seconds(tBound - tNodes)} after the first create (${Math.round(podCount / ((tBound - tNodes) / 1000))} pods/s), ${cluster.scheduler.stats.cycles} cycles`,
);
console.log(`all pods Running: ${seconds(tRunning - tNodes)} after the first create`);
console.log(`heap used ${mib(memory.heapUsed - baseline.heapUsed)} more than at start, rss ${mib(memory.rss)}`);
console.log(
  `errors: kubelet ${cluster.kubelet.errors.length}, scheduler ${cluster.scheduler.errors.length}, unschedulable attempts ${cluster.scheduler.stats.unschedulable}`,
);
clearInterval(progress);
await cluster.close();
