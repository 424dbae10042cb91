/**
 * Simulated API server at scale: 1,000 nodes and 10,000 pods created over HTTP through @kubernetes/client-node
 * while two informers watch them. Prints creation time, time until the informers have seen everything,
 * a full list, and the process memory.   Run: npm run bench:apiserver
 */
import * as k8s from '@kubernetes/client-node';
import { startApiServer } from '../src/testbed/cluster/apiserver/index.js';

const nodeCount = Number(process.env.NODES ?? 1_000);
const podCount = Number(process.env.PODS ?? 10_000);
const concurrency = 32;

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function inParallel(total: number, work: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await work(next++);
    }),
  );
}

async function waitFor(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

const baseline = process.memoryUsage();
const server = await startApiServer({ watchCacheSize: 20_000 });
const core = server.kubeConfig.makeApiClient(k8s.CoreV1Api);
const nodeInformer = k8s.makeInformer(server.kubeConfig, '/api/v1/nodes', () => core.listNode());
const podInformer = k8s.makeInformer(server.kubeConfig, '/api/v1/pods', () => core.listPodForAllNamespaces());
let podEvents = 0;
podInformer.on('add', () => podEvents++);
await nodeInformer.start();
await podInformer.start();

const t0 = performance.now();
await inParallel(nodeCount, (i) =>
  core.createNode({
    body: {
      metadata: {
        name: `node-${i}`,
        labels: {
          'kubernetes.io/hostname': `node-${i}`,
          'topology.kubernetes.io/zone': `zone-${i % 3}`,
          'karpenter.sh/nodepool': 'default',
        },
      },
      status: {
        capacity: { cpu: '16', memory: '64Gi', pods: '110' },
        allocatable: { cpu: '15800m', memory: '62Gi', pods: '110' },
        conditions: [{ type: 'Ready', status: 'True' }],
      },
    },
  }),
);
const tNodes = performance.now();
await inParallel(podCount, (i) =>
  core.createNamespacedPod({
    namespace: 'default',
    body: {
      metadata: { name: `pod-${i}`, labels: { app: `app-${i % 50}` } },
      spec: {
        nodeName: `node-${i % nodeCount}`,
        containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.9', resources: { requests: { cpu: '100m', memory: '128Mi' } } }],
      },
    },
  }),
);
const tPods = performance.now();
await waitFor(() => nodeInformer.list().length === nodeCount && podInformer.list().length === podCount);
const tSeen = performance.now();
const list = await core.listPodForAllNamespaces({ fieldSelector: 'spec.nodeName=node-7' });
const tList = performance.now();
const all = await core.listPodForAllNamespaces();
const tListAll = performance.now();
global.gc?.();
const memory = process.memoryUsage();

console.log(`simulated API server: ${nodeCount} nodes + ${podCount} pods, ${concurrency} concurrent client-node requests, 2 informers`);
console.log(`  create nodes           ${(tNodes - t0).toFixed(0)} ms (${((nodeCount / (tNodes - t0)) * 1000).toFixed(0)}/s)`);
console.log(`  create pods            ${(tPods - tNodes).toFixed(0)} ms (${((podCount / (tPods - tNodes)) * 1000).toFixed(0)}/s)`);
console.log(`  informers caught up    ${(tSeen - t0).toFixed(0)} ms after start (pod add events: ${podEvents})`);
console.log(`  field-selected list    ${(tList - tSeen).toFixed(1)} ms (${list.items.length} pods on node-7)`);
console.log(`  list all pods          ${(tListAll - tList).toFixed(0)} ms (${all.items.length} items)`);
console.log(
  `  memory (server + client + informers in one process): rss ${mib(memory.rss)}, heapUsed ${mib(memory.heapUsed)} (baseline rss ${mib(baseline.rss)}, heapUsed ${mib(baseline.heapUsed)})`,
);

await nodeInformer.stop();
await podInformer.stop();
await server.close();
