/**
 * Admission webhook latency over loopback HTTPS with a keep-alive agent, as the API server calls it:
 * an open-loop load of RATE requests/s (default 1,000) for DURATION seconds on /validate and /mutate with a
 * realistic NodePool review (cross-object checks against 10 NodePools, 3 NodeClasses and 1,000 NodeClaims, read from
 * the service's ClusterState-backed context while NodeClaims keep changing), then a closed-loop
 * run for the maximum throughput. The server runs in its own process (as in a cluster), so the load generator
 * does not share its event loop. Prints p50/p99/max and achieved req/s; target p99 < 5 ms at 1,000 req/s.
 * Also reported: time spent in the server per request and both event loops' delay, to tell server cost from
 * the load generator competing for the same cores, the server's GC pauses per phase (their count and length do
 * not depend on what else the machine runs, unlike the latencies), and a `/floor` case (a constant answer over the same HTTPS
 * path, no webhook logic) that shows what the machine costs on its own.
 * Run: npm run bench:admission   (RATE=2000 DURATION=10 to change the load; SERVER_NODE_OPTIONS=--trace-gc …)
 */
import { fork } from 'node:child_process';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import https from 'node:https';
import os from 'node:os';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { CloudNames, type CloudName } from '../src/apis/v1/labels.js';
import type { NodeClaim, NodePool } from '../src/apis/index.js';
import { loadCatalog } from '../src/catalog/index.js';
import type { CatalogFile } from '../src/catalog/types.js';
import type { KubeObject } from '../src/domain/admission/index.js';
import { createLoopbackCertificate } from '../src/util/tls.js';
import { stateAdmissionContext } from '../src/views/admission-context.js';
import { ClusterState } from '../src/state/index.js';
import { SystemClock } from '../src/util/clock.js';
import { createAdmissionServer } from '../webhooks/admission/index.js';
import { loadCertificate } from '../webhooks/shared/certificate-source.js';
import { expressServerClasses } from '../webhooks/shared/express-classes.js';
import { listenHttps } from '../webhooks/shared/https-listener.js';

const rate = Number(process.env.RATE ?? 1_000);
const durationSeconds = Number(process.env.DURATION ?? 5);
const serviceName = '0123456789abcdef0123456789abcdef';

const nodeClass = (name: string, spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'karpenter.ovhcloud.sh/v1alpha1',
  kind: 'OVHNodeClass',
  metadata: { name },
  spec: {
    serviceName,
    kubeId: '6f1c9a52-3b7e-4d0a-9c51-2e8f4b7a1d03',
    region: 'EU-WEST-PAR',
    credentialsSecretRef: { name: 'ovh', namespace: 'karpenter' },
    ...spec,
  },
});
const nodePool = (name: string, nodeClassName = 'default'): KubeObject => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name },
  spec: {
    template: {
      metadata: { labels: { team: 'platform' } },
      spec: {
        nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: nodeClassName },
        requirements: [
          { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['b3-8', 'b3-16', 'b3-32', 'b3-64', 'c3-8', 'c3-16'] },
          { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['eu-west-par-a', 'eu-west-par-b', 'eu-west-par-c'] },
        ],
        expireAfter: '720h',
      },
    },
    limits: { cpu: '64', memory: '256Gi' },
    disruption: {
      consolidationPolicy: 'WhenEmptyOrUnderutilized',
      consolidateAfter: '1m',
      budgets: [{ nodes: '10%' }, { nodes: '0', schedule: '0 8 * * 1-5', duration: '10h' }],
    },
  },
});

const nodeClaim = (i: number, generation: number): NodeClaim =>
  ({
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: { name: `pool-${i % 10}-${i}`, labels: { 'karpenter.sh/nodepool': `pool-${i % 10}` }, resourceVersion: String(generation) },
    spec: { nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'default' }, requirements: [] },
    status: {
      providerID: `openstack:///node-${i}`,
      conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: '', lastTransitionTime: '2026-11-24T00:00:00Z' }],
    },
  }) as unknown as NodeClaim;

const review = (object: KubeObject): string =>
  JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: { uid: 'bench', operation: 'CREATE', kind: { group: 'karpenter.sh', version: 'v1', kind: 'NodePool' }, object },
  });

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/**
 * The calibration case: the same HTTPS server, body read and JSON round trip, but a constant answer and no
 * express or admission logic — what this machine's loopback TLS, event loops and scheduler cost on their own.
 */
function answerConstant(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const uid = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request?: { uid?: string } }).request?.uid ?? '';
    const body = JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid, allowed: true } });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
}

/** Child process: the webhook server; tells the parent its URL and CA, stops on 'stop'. */
async function serve(): Promise<void> {
  const cert = await createLoopbackCertificate();
  const catalogs = Object.fromEntries(CloudNames.map((c) => [c, loadCatalog(c)])) as Record<CloudName, CatalogFile>;
  // The service's own context: ClusterState as the informers fill it (10 NodePools, 3 NodeClasses, 1,000 NodeClaims).
  const state = new ClusterState({ clock: new SystemClock() });
  for (const c of [nodeClass('default'), nodeClass('monthly', { monthlyBilled: true }), nodeClass('aa', { antiAffinity: true })])
    state.updateNodeClass('OVHNodeClass', c as never);
  for (let i = 0; i < 10; i++) state.updateNodePool(nodePool(`pool-${i}`) as unknown as NodePool);
  for (let i = 0; i < 1_000; i++) state.updateNodeClaim(nodeClaim(i, 0));
  const contextProvider = stateAdmissionContext({ state, catalogs, defaults: { gpuTaint: true, globalCredentials: {} } });
  const { app } = createAdmissionServer({ tls: cert, contextProvider });
  // Server-side time per request (arrival → response written) and event-loop delay, per phase.
  let handling: number[] = [];
  let lag = monitorEventLoopDelay({ resolution: 1 });
  let gcPauses: number[] = [];
  new PerformanceObserver((list) => void gcPauses.push(...list.getEntries().map((e) => e.duration))).observe({ entryTypes: ['gc'] });
  let served = 0;
  const timed: RequestListener = (req, res) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      handling.push(Number(process.hrtime.bigint() - started) / 1e6);
      // NodeClaims change while reviews arrive (status updates): one every 50 reviews.
      if (++served % 50 === 0) state.updateNodeClaim(nodeClaim(served % 1_000, served));
    });
    if (req.url === '/floor') answerConstant(req, res);
    else app(req, res);
  };
  const server = await listenHttps(timed, loadCertificate(cert), 0, '127.0.0.1', { classes: expressServerClasses(app) });
  process.send?.({ url: server.url, ca: cert.caPem });
  process.on('message', (message) => {
    if (message === 'begin') {
      handling = [];
      gcPauses = [];
      lag = monitorEventLoopDelay({ resolution: 1 });
      lag.enable();
    } else if (message === 'report') {
      lag.disable();
      handling.sort((a, b) => a - b);
      const gc = { count: gcPauses.length, total: gcPauses.reduce((a, b) => a + b, 0), max: Math.max(0, ...gcPauses) };
      process.send?.({ p50: percentile(handling, 50), p99: percentile(handling, 99), lagP99: lag.percentile(99) / 1e6, gc });
    } else void server.close().then(() => process.exit(0));
  });
}

async function main(): Promise<void> {
  // SERVER_NODE_OPTIONS: extra flags for the server process (--cpu-prof, --trace-gc, --max-semi-space-size=…).
  const child = fork(new URL(import.meta.url).pathname, ['serve'], {
    stdio: 'inherit',
    execArgv: [...process.execArgv, ...(process.env.SERVER_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [])],
  });
  const server = await new Promise<{ url: string; ca: string }>((resolve) =>
    child.once('message', (m) => resolve(m as { url: string; ca: string })),
  );
  const cert = { caPem: server.ca };
  const agent = new https.Agent({ keepAlive: true, maxSockets: 32, ca: cert.caPem });
  const body = review(nodePool('bench-pool'));

  const call = (path: string): Promise<number> =>
    new Promise((resolve, reject) => {
      const started = process.hrtime.bigint();
      const req = https.request(
        `${server.url}${path}`,
        { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          res.on('data', () => undefined);
          res.on('end', () =>
            res.statusCode === 200
              ? resolve(Number(process.hrtime.bigint() - started) / 1e6)
              : reject(new Error(`status ${res.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  async function openLoop(path: string): Promise<void> {
    const total = rate * durationSeconds;
    child.send('begin');
    const lag = monitorEventLoopDelay({ resolution: 1 });
    lag.enable();
    const latencies: number[] = [];
    const pending: Promise<void>[] = [];
    const start = performance.now();
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      pending.push(call(path).then((ms) => void latencies.push(ms)));
    }
    await Promise.all(pending);
    const elapsed = (performance.now() - start) / 1000;
    latencies.sort((a, b) => a - b);
    lag.disable();
    type Served = { p50: number; p99: number; lagP99: number; gc: { count: number; total: number; max: number } };
    const served = await new Promise<Served>((resolve) => {
      child.once('message', (m) => resolve(m as Served));
      child.send('report');
    });
    console.log(`${path.padEnd(10)} open loop ${rate} req/s × ${durationSeconds}s, achieved ${(total / elapsed).toFixed(0)} req/s`);
    console.log(
      `           round trip p50 ${percentile(latencies, 50).toFixed(2)} ms  p99 ${percentile(latencies, 99).toFixed(2)} ms  max ${latencies.at(-1)?.toFixed(2)} ms`,
    );
    console.log(
      `           in the server p50 ${served.p50.toFixed(2)} ms  p99 ${served.p99.toFixed(2)} ms; event-loop delay p99: server ${served.lagP99.toFixed(2)} ms, load generator ${(lag.percentile(99) / 1e6).toFixed(2)} ms`,
    );
    console.log(
      `           GC in the server: ${served.gc.count} pauses (${((served.gc.count / total) * 1000).toFixed(1)} per 1,000 requests), ${served.gc.total.toFixed(1)} ms in all, longest ${served.gc.max.toFixed(2)} ms`,
    );
  }

  async function closedLoop(path: string, concurrency = 16, total = 10_000, report = true): Promise<void> {
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next++ < total) await call(path);
      }),
    );
    if (report)
      console.log(
        `${path.padEnd(10)} closed loop, ${concurrency} in flight: ${(total / ((performance.now() - start) / 1000)).toFixed(0)} req/s max throughput`,
      );
  }

  console.log(`admission webhook bench: node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'})`);
  // Warm-up: JIT, CEL compilation and the keep-alive connections (TLS handshakes) the open loop will use.
  for (const path of ['/validate', '/mutate']) await closedLoop(path, 32, 3_000, false);
  for (const path of ['/floor', '/validate', '/mutate']) await openLoop(path);
  for (const path of ['/validate', '/mutate']) await closedLoop(path);
  agent.destroy();
  child.send('stop');
}

(process.argv.includes('serve') ? serve() : main()).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
