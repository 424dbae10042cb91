/**
 * kube-scheduler extender latency over loopback HTTP with keep-alive, as the scheduler calls it:
 * filter and prioritize with 5,000 nodes in NodeNames mode (nodeCacheCapable: true) and 500 full Node
 * objects in Nodes mode. Prints p50/p99/max per case; target p99 < 5 ms in NodeNames mode.
 * Run: npm run bench:extender   (ITERATIONS=2000 to sample more)
 */
import http from 'node:http';
import os from 'node:os';
import type { V1Node } from '@kubernetes/client-node';
import type { ExtenderNode, ExtenderNodeState } from '../src/domain/extender/index.js';
import { createExtenderServer } from '../webhooks/extender/index.js';

const iterations = Number(process.env.ITERATIONS ?? 1_000);
const warmup = 100;
const GiB = 2 ** 30;
const states: ExtenderNodeState[] = ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'consolidation-candidate', 'drifted', 'disrupting', 'terminating'];

function viewNode(i: number): ExtenderNode {
  return {
    labels: { 'node.kubernetes.io/instance-type': `b3-${8 << i % 3}`, 'topology.kubernetes.io/zone': `eu-west-par-${'abc'[i % 3]}` },
    taints: [],
    allocatable: { cpu: 7_910, memory: 28 * GiB, pods: 110 },
    requested: { cpu: (i * 37) % 7_000, memory: ((i * 53) % 24) * GiB, pods: i % 40 },
    pricePerHour: 0.05 + (i % 7) * 0.02,
    state: states[i % states.length] as ExtenderNodeState,
  };
}

// A realistic Node object (~4 KiB): labels, taints, addresses, conditions, images.
function nodeObject(name: string, i: number): V1Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, uid: `uid-${i}`, resourceVersion: `${1000 + i}`, labels: { ...viewNode(i).labels, 'kubernetes.io/hostname': name, 'kubernetes.io/arch': 'amd64', 'kubernetes.io/os': 'linux', 'karpenter.sh/nodepool': 'default', 'karpenter-eu.io/cloud': 'ovhcloud' } },
    spec: { providerID: `openstack:///${name}`, taints: i % 10 === 8 ? [{ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }] : [] },
    status: {
      capacity: { cpu: '8', memory: '30Gi', pods: '110' },
      allocatable: { cpu: '7910m', memory: '28Gi', pods: '110' },
      addresses: [{ type: 'InternalIP', address: `10.0.${i >> 8}.${i & 255}` }, { type: 'Hostname', address: name }],
      conditions: ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'].map((type) => ({ type, status: type === 'Ready' ? 'True' : 'False', reason: 'KubeletReady', message: 'kubelet is posting ready status' })),
      images: Array.from({ length: 12 }, (_, j) => ({ names: [`registry.example.eu/team/app-${j}@sha256:${'ab'.repeat(32)}`, `registry.example.eu/team/app-${j}:v1.${j}`], sizeBytes: 50_000_000 + j })),
      nodeInfo: { kubeletVersion: 'v1.31.2', containerRuntimeVersion: 'containerd://1.7.22', osImage: 'Ubuntu 22.04', kernelVersion: '5.15', architecture: 'amd64', operatingSystem: 'linux', bootID: '', machineID: '', systemUUID: '', kubeProxyVersion: '' },
    },
  };
}

const pod = {
  metadata: { name: 'inflate-0', namespace: 'default', uid: 'p-uid' },
  spec: { containers: [{ name: 'inflate', image: 'registry.k8s.io/pause:3.9', resources: { requests: { cpu: '500m', memory: '1Gi' } } }] },
};

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function post(url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

async function measure(label: string, url: string, body: string): Promise<void> {
  for (let i = 0; i < warmup; i++) await post(url, body);
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    const status = await post(url, body);
    samples.push(performance.now() - t0);
    if (status !== 200) throw new Error(`benchmarking ${label}: status ${status}`);
  }
  samples.sort((a, b) => a - b);
  const kib = (Buffer.byteLength(body) / 1024).toFixed(0);
  console.log(`${label.padEnd(38)} body ${kib.padStart(5)} KiB  p50 ${percentile(samples, 50).toFixed(2)} ms  p99 ${percentile(samples, 99).toFixed(2)} ms  max ${samples.at(-1)?.toFixed(2)} ms`);
}

const view = new Map<string, ExtenderNode>();
for (let i = 0; i < 5_000; i++) view.set(`node-${i}`, viewNode(i));
let signals = 0;
const server = await createExtenderServer({ view, onNeedsCapacity: () => void signals++ }).listen();
try {
  const names = JSON.stringify({ Pod: pod, Nodes: null, NodeNames: [...view.keys()] });
  const items = Array.from({ length: 500 }, (_, i) => nodeObject(`node-${i}`, i));
  const full = JSON.stringify({ Pod: pod, Nodes: { apiVersion: 'v1', kind: 'NodeList', metadata: {}, items }, NodeNames: null });
  const load = os.loadavg().map((l) => l.toFixed(1)).join(' ');
  console.log(`extender over loopback HTTP keep-alive, ${iterations} sequential requests per case (after ${warmup} warm-up); ${os.cpus().length} CPUs, load average ${load}`);
  await measure('filter     NodeNames 5,000 nodes', `${server.url}/scheduler/filter`, names);
  await measure('prioritize NodeNames 5,000 nodes', `${server.url}/scheduler/prioritize`, names);
  await measure('filter     Nodes (full)  500 nodes', `${server.url}/scheduler/filter`, full);
  await measure('prioritize Nodes (full)  500 nodes', `${server.url}/scheduler/prioritize`, full);
  console.log(`needs-capacity signals: ${signals} (expected 0: every case leaves nodes)`);
} finally {
  agent.destroy();
  await server.close();
}
