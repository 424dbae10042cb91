/**
 * kube-scheduler extender latency over loopback HTTP with keep-alive, as the scheduler calls it:
 * filter and prioritize with 5,000 nodes in NodeNames mode (nodeCacheCapable: true, 16 orders sent in turn, as
 * the scheduler's list differs every cycle), the 500-name samples kube-scheduler sends by default at 5,000
 * nodes, and 500 full Node objects in Nodes mode; answered from
 * the service's own ClusterState-backed view (5,000 nodes, 50,000 pods, one pod event between two calls).
 * The server runs in its own process. Prints per case the round trip's p50/p99/max, the time in the server
 * (arrival → response written) and the server's CPU time per call; target p99 < 5 ms in NodeNames mode.
 * A `floor` case (the same body parsing and a constant answer of the same size) shows what moving the bytes
 * costs on the machine, apart from the extender's work. The `string path` cases send the same NodeNames bodies
 * to a second extender app over the same view without its by-bytes lookup (nodesNamed), so every name is made
 * a string, as for any other view: the byte path and the string path side by side in one run.
 * Run: npm run bench:extender   (ITERATIONS=2000 to sample more; CASES=<regexp> to pick cases; SERVER_NODE_OPTIONS=--trace-gc …)
 */
import { type ChildProcess, fork } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import type { NodeClaim } from '../src/apis/index.js';
import { loadCatalog } from '../src/catalog/index.js';
import type { DisruptionOutlook } from '../src/domain/disruption/index.js';
import type { ExtenderClusterView } from '../src/domain/extender/index.js';
import { clusterStateExtenderView } from '../src/views/extender-view.js';
import { CatalogPriceBook } from '../src/views/price-book.js';
import { ClusterState } from '../src/state/index.js';
import { SystemClock } from '../src/util/clock.js';
import { createExtenderServer } from '../webhooks/extender/index.js';
import { seededRandom } from '../src/util/seeded-random.js';
import { expressServerClasses } from '../webhooks/shared/express-classes.js';
import express from 'express';

const iterations = Number(process.env.ITERATIONS ?? 1_000);
const warmup = 100;
/** CASES=<regexp>: run only the cases whose label matches (e.g. CASES='prioritize.*5,000 nodes' with --cpu-prof). */
const onlyCases = process.env.CASES ? new RegExp(process.env.CASES) : undefined;
const flavors = ['b3-8', 'b3-16', 'b3-32'];
const podsPerNode = 10;
const nodeCount = 5_000;
/** URL prefix of the string-path app (the same view without nodesNamed). */
const StringPathPrefix = '/string';

/**
 * A node name shaped as on OVHcloud MKS (`{node pool}-node-{6 hex}`, the pools this service creates are
 * `karpenter-{flavor}-{zone}`). Real names are longer than 10 characters, which matters here: V8's JSON.parse
 * interns string values of up to 10 characters, a lookup in the process's (large) string table per name.
 */
function nodeName(i: number): string {
  const hex = ((i * 2_654_435_761) >>> 0).toString(16).padStart(8, '0').slice(0, 6);
  return `karpenter-${flavors[i % 3]}-eu-west-par-${'abc'[i % 3]}-node-${hex}`;
}

function clusterNode(name: string, i: number): V1Node {
  const full = nodeObject(name, i);
  return { ...full, status: { ...full.status, images: [] } };
}

function boundPod(node: string, i: number, j: number): V1Pod {
  const cpu = `${100 + ((i * 37 + j * 11) % 600)}m`;
  const memory = `${256 + ((i * 53 + j * 7) % 1_800)}Mi`;
  return {
    metadata: { name: `app-${i}-${j}`, namespace: 'default', uid: `pod-${i}-${j}`, resourceVersion: '1' },
    spec: {
      nodeName: node,
      containers: [{ name: 'app', image: 'registry.example.eu/team/app:v1', resources: { requests: { cpu, memory } } }],
    },
    status: { phase: 'Running' },
  };
}

/**
 * The service's own view (ClusterState + clusterStateExtenderView), filled as the informers would fill it:
 * 5,000 nodes with NodeClaims and 10 Running pods each; some nodes deleting, chosen by disruption, drifted or
 * consolidatable, so every branch of the scorer runs.
 */
function clusterView(): { state: ClusterState; view: ExtenderClusterView } {
  const state = new ClusterState({ clock: new SystemClock() });
  const view = clusterStateExtenderView(state, new CatalogPriceBook({ ovhcloud: loadCatalog('ovhcloud') }));
  const outlook = new Map<string, DisruptionOutlook>();
  for (let i = 0; i < nodeCount; i++) {
    const name = nodeName(i);
    state.updateNode(clusterNode(name, i));
    const deleting = i % 10 === 9 ? { deletionTimestamp: new Date().toISOString() } : {};
    state.updateNodeClaim({
      metadata: { name: `claim-${i}`, ...deleting },
      spec: { nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'default' }, requirements: [] },
      status: { providerID: `openstack:///${name}` },
    } as unknown as NodeClaim);
    for (let j = 0; j < podsPerNode; j++) state.updatePod(boundPod(name, i, j));
    if (i % 10 === 6) outlook.set(name, 'consolidation-candidate');
    if (i % 10 === 7) outlook.set(name, 'drifted');
  }
  state.markForDeletion(...Array.from({ length: nodeCount / 10 }, (_, k) => `openstack:///${nodeName(k * 10 + 8)}`));
  state.setDisruptionOutlook(outlook);
  return { state, view };
}

// A realistic Node object (~4 KiB): labels, taints, addresses, conditions, images.
function nodeObject(name: string, i: number): V1Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      uid: `uid-${i}`,
      resourceVersion: `${1000 + i}`,
      labels: {
        'node.kubernetes.io/instance-type': flavors[i % 3] as string,
        'topology.kubernetes.io/zone': `eu-west-par-${'abc'[i % 3]}`,
        'kubernetes.io/hostname': name,
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/os': 'linux',
        'karpenter.sh/nodepool': 'default',
        'karpenter-eu.io/cloud': 'ovhcloud',
      },
    },
    spec: { providerID: `openstack:///${name}`, taints: i % 10 === 8 ? [{ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }] : [] },
    status: {
      capacity: { cpu: '8', memory: '30Gi', pods: '110' },
      allocatable: { cpu: '7910m', memory: '28Gi', pods: '110' },
      addresses: [
        { type: 'InternalIP', address: `10.0.${i >> 8}.${i & 255}` },
        { type: 'Hostname', address: name },
      ],
      conditions: ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'].map((type) => ({
        type,
        status: type === 'Ready' ? 'True' : 'False',
        reason: 'KubeletReady',
        message: 'kubelet is posting ready status',
      })),
      images: Array.from({ length: 12 }, (_, j) => ({
        names: [`registry.example.eu/team/app-${j}@sha256:${'ab'.repeat(32)}`, `registry.example.eu/team/app-${j}:v1.${j}`],
        sizeBytes: 50_000_000 + j,
      })),
      nodeInfo: {
        kubeletVersion: 'v1.31.2',
        containerRuntimeVersion: 'containerd://1.7.22',
        osImage: 'Ubuntu 22.04',
        kernelVersion: '5.15',
        architecture: 'amd64',
        operatingSystem: 'linux',
        bootID: '',
        machineID: '',
        systemUUID: '',
        kubeProxyVersion: '',
      },
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
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A seeded shuffle, so every run sends the same orders. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  const random = seededRandom(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

function ask<T>(child: ChildProcess, message: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as T));
    child.send(message);
  });
}

/** Calls in turn with each body: the scheduler never sends the same list twice in a row. */
async function measure(child: ChildProcess, label: string, url: string, bodies: string[]): Promise<void> {
  if (onlyCases && !onlyCases.test(label)) return;
  const body = (i: number): string => bodies[i % bodies.length] as string;
  for (let i = 0; i < warmup; i++) await post(url, body(i));
  await ask(child, 'report');
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    const status = await post(url, body(i));
    samples.push(performance.now() - t0);
    if (status !== 200) throw new Error(`benchmarking ${label}: status ${status}`);
  }
  samples.sort((a, b) => a - b);
  const kib = (Buffer.byteLength(body(0)) / 1024).toFixed(0);
  const served = await ask<{ p50: number; p99: number; cpuPerCall: number }>(child, 'report');
  console.log(
    `${label.padEnd(48)} body ${kib.padStart(5)} KiB  round trip p50 ${percentile(samples, 50).toFixed(2)} ms  p99 ${percentile(samples, 99).toFixed(2)} ms  max ${samples.at(-1)?.toFixed(2)} ms | in the server p50 ${served.p50.toFixed(2)} ms  p99 ${served.p99.toFixed(2)} ms, CPU ${served.cpuPerCall.toFixed(2)} ms/call`,
  );
}

/** Child process: the extender with a 5,000-node view; tells the parent its URL, reports signals on 'stop'. */
async function serve(): Promise<void> {
  const { state, view } = clusterView();
  let signals = 0;
  let churn = 0;
  const { app } = createExtenderServer({ view, onNeedsCapacity: () => void signals++ });
  // The same view asked name by name: the general (string) path of the handlers.
  const { app: stringApp } = createExtenderServer({ view: { get: (name) => view.get(name) }, onNeedsCapacity: () => void signals++ });
  // Time in the server per request (arrival → response written), reported per case.
  let handling: number[] = [];
  // The server process's CPU time (all threads) per call, averaged over a case: less sensitive than the
  // percentiles to the descheduling and steal of a small shared VM, so A/B comparisons use it.
  let cpuSinceReport = process.cpuUsage();
  // The floor: the same express body parsing and a constant answer of a 5,000-node prioritize's size, so the
  // machine's cost of moving the bytes is seen apart from the extender's work.
  const floor = express();
  const floorAnswer = Buffer.from(JSON.stringify(Array.from({ length: nodeCount }, (_, i) => ({ Host: nodeName(i), Score: i % 11 }))));
  floor.post('/floor', express.raw({ limit: '100mb', type: () => true }), (_req, res) => {
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(floorAnswer);
  });
  const server = http.createServer(expressServerClasses(app), (req, res) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      handling.push(Number(process.hrtime.bigint() - started) / 1e6);
      // Between two scheduling cycles a pod binds somewhere: one node's answer must be derived again.
      const i = (churn++ * 7_919) % nodeCount;
      state.updatePod(boundPod(nodeName(i), i, churn % podsPerNode));
    });
    if (req.url === '/floor') floor(req, res);
    else if (req.url?.startsWith(StringPathPrefix)) {
      req.url = req.url.slice(StringPathPrefix.length);
      stringApp(req, res);
    } else app(req, res);
  });
  server.keepAliveTimeout = 95_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  process.on('message', (message) => {
    if (message === 'report') {
      const sorted = handling.sort((a, b) => a - b);
      const cpu = process.cpuUsage(cpuSinceReport);
      cpuSinceReport = process.cpuUsage();
      const cpuPerCall = sorted.length > 0 ? (cpu.user + cpu.system) / 1e3 / sorted.length : 0;
      handling = [];
      process.send?.({ p50: percentile(sorted, 50), p99: percentile(sorted, 99), cpuPerCall });
      return;
    }
    process.send?.({ signals });
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}

async function main(): Promise<void> {
  // The server runs in its own process, as beside kube-scheduler: the load generator does not share its event loop.
  // SERVER_NODE_OPTIONS: extra flags for the server process (--cpu-prof, --trace-gc, --max-semi-space-size=…).
  const child = fork(new URL(import.meta.url).pathname, ['serve'], {
    stdio: 'inherit',
    execArgv: [...process.execArgv, ...(process.env.SERVER_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [])],
  });
  const server = await new Promise<{ url: string }>((resolve) => child.once('message', (m) => resolve(m as { url: string })));
  // kube-scheduler's parallel filter completes nodes in a different order every cycle, and with 5,000 nodes its
  // default percentageOfNodesToScore (50 − 5,000/125 = 10 %) stops after 500 feasible nodes and sends only
  // those (all 5,000 arrive only with percentageOfNodesToScore: 100): 16 orders, 16 different samples.
  const allNames = Array.from({ length: nodeCount }, (_, i) => nodeName(i));
  const names = Array.from({ length: 16 }, (_, k) => JSON.stringify({ Pod: pod, Nodes: null, NodeNames: shuffled(allNames, k + 1) }));
  const sample = Array.from({ length: 16 }, (_, k) =>
    JSON.stringify({ Pod: pod, Nodes: null, NodeNames: shuffled(allNames, 100 + k).slice(0, 500) }),
  );
  const items = Array.from({ length: 500 }, (_, i) => nodeObject(nodeName(i), i));
  const full = JSON.stringify({ Pod: pod, Nodes: { apiVersion: 'v1', kind: 'NodeList', metadata: {}, items }, NodeNames: null });
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  console.log(
    `extender over loopback HTTP keep-alive (server in its own process), ${iterations} sequential requests per case (after ${warmup} warm-up); ${os.cpus().length} CPUs, load average ${load}`,
  );
  await measure(child, 'floor      NodeNames 5,000 nodes (no work)', `${server.url}/floor`, names);
  await measure(child, 'filter     NodeNames 5,000 nodes', `${server.url}/scheduler/filter`, names);
  await measure(child, 'prioritize NodeNames 5,000 nodes', `${server.url}/scheduler/prioritize`, names);
  await measure(child, 'filter     NodeNames 5,000 nodes, string path', `${server.url}${StringPathPrefix}/scheduler/filter`, names);
  await measure(child, 'prioritize NodeNames 5,000 nodes, string path', `${server.url}${StringPathPrefix}/scheduler/prioritize`, names);
  await measure(child, 'filter     NodeNames 500 of 5,000 nodes', `${server.url}/scheduler/filter`, sample);
  await measure(child, 'prioritize NodeNames 500 of 5,000 nodes', `${server.url}/scheduler/prioritize`, sample);
  await measure(child, 'filter     NodeNames 500 of 5,000, string path', `${server.url}${StringPathPrefix}/scheduler/filter`, sample);
  await measure(child, 'prioritize NodeNames 500 of 5,000, string path', `${server.url}${StringPathPrefix}/scheduler/prioritize`, sample);
  await measure(child, 'filter     Nodes (full)  500 nodes', `${server.url}/scheduler/filter`, [full]);
  await measure(child, 'prioritize Nodes (full)  500 nodes', `${server.url}/scheduler/prioritize`, [full]);
  agent.destroy();
  const { signals } = await ask<{ signals: number }>(child, 'stop');
  console.log(`needs-capacity signals: ${signals} (expected 0: every case leaves nodes)`);
}

(process.argv.includes('serve') ? serve() : main()).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
