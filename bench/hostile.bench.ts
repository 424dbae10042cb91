/**
 * Hostile requests against the running servers (the extender over HTTP, the admission webhooks over HTTPS, both
 * in a child process as in a cluster): a 100 MB body (declared, and chunked), a 1 MB quantity, the worst budget
 * schedule of its maximum length (and a 655-byte one), JSON nested 10,000 levels deep. For each: the status and
 * the time at the server (request arrival → answer written), the target being a 4xx (or an admission denial)
 * within 100 ms, and /healthz answered meanwhile. Next to them, as baselines: the same servers answering an
 * ordinary request, and the upstream budget-schedule regex (what validation ran before) at growing lengths, in
 * a child process killed after 10 s. Last, every pattern-checked field of the CRDs fed adversarial strings of
 * its maximum length: the slowest check per pattern.
 * Run: npm run bench:hostile   (REPEAT=5 to change the runs per case)
 */
import { fork } from 'node:child_process';
import http, { type RequestListener } from 'node:http';
import https from 'node:https';
import { CrdDefinitions } from '../src/apis/crd/registry.js';
import { toOpenApi } from '../src/apis/schema/builders.js';
import type { OpenApiSchema } from '../src/apis/schema/openapi-schema.js';
import { MaxScheduleLength } from '../src/apis/schema/string-limits.js';
import { BudgetSchedulePattern } from '../src/apis/v1/patterns.js';
import { validateStructure } from '../src/apis/validation/structural.js';
import type { ExtenderNode } from '../src/domain/extender/index.js';
import { createLoopbackCertificate } from '../src/util/tls.js';
import { createAdmissionServer, InMemoryContextProvider } from '../webhooks/admission/index.js';
import { createExtenderServer } from '../webhooks/extender/index.js';
import { loadCertificate } from '../webhooks/shared/certificate-source.js';
import { expressServerClasses } from '../webhooks/shared/express-classes.js';
import { listenHttps } from '../webhooks/shared/https-listener.js';

const repeat = Number(process.env.REPEAT ?? 5);
const MB = 1000 * 1000;

interface Served {
  path: string;
  status: number;
  ms: number;
}

/** Wraps a request listener to record, per request, the time from arrival to the answer written. */
function timed(app: RequestListener, served: Served[]): RequestListener {
  return (req, res) => {
    const started = process.hrtime.bigint();
    res.on('finish', () =>
      served.push({ path: req.url ?? '', status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 }),
    );
    app(req, res);
  };
}

const GiB = 2 ** 30;
const viewNode: ExtenderNode = {
  labels: {},
  taints: [],
  allocatable: { cpu: 4000, memory: 8 * GiB, pods: 110 },
  requested: {},
  pricePerHour: 0.1,
  state: 'ok',
};

async function serve(): Promise<void> {
  const served: Served[] = [];
  const view = new Map(Array.from({ length: 5000 }, (_, i) => [`node-${i}`, viewNode] as const));
  const extender = createExtenderServer({ view, onNeedsCapacity: () => undefined });
  const extenderServer = http.createServer(expressServerClasses(extender.app), timed(extender.app, served));
  await new Promise<void>((resolve) => extenderServer.listen(0, '127.0.0.1', resolve));
  const cert = await createLoopbackCertificate();
  const admission = createAdmissionServer({
    tls: cert,
    contextProvider: new InMemoryContextProvider({ objects: [], catalogs: {}, defaults: { gpuTaint: true, globalCredentials: {} } }),
  });
  const admissionServer = await listenHttps(timed(admission.app, served), loadCertificate(cert), 0, '127.0.0.1', {
    classes: expressServerClasses(admission.app),
  });
  const extenderUrl = `http://127.0.0.1:${(extenderServer.address() as { port: number }).port}`;
  process.send?.({ extenderUrl, admissionUrl: admissionServer.url, ca: cert.caPem });
  process.on('message', (message) => {
    if (message === 'served') process.send?.(served.splice(0));
    else process.exit(0);
  });
}

interface Target {
  extenderUrl: string;
  admissionUrl: string;
  ca: string;
}

/**
 * One request: `body` written in full, or, with `declared`/`chunked`, written in 64 KiB pieces until the answer
 * (never more than `declared` bytes). Resolves once the answer has arrived, or once the server has closed the
 * connection under a body it refused (Node's client then reports the broken write, not the answer: the
 * status is taken from the server's record).
 */
function send(url: string, ca: string, options: { body?: string | Buffer; declared?: number; chunked?: boolean }): Promise<void> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-type': 'application/json' };
    if (options.declared !== undefined) headers['content-length'] = options.declared;
    else if (options.body !== undefined && !options.chunked) headers['content-length'] = Buffer.byteLength(options.body);
    const request = (url.startsWith('https') ? https : http).request(url, {
      method: 'POST',
      headers,
      agent: false,
      ...(url.startsWith('https') ? { ca } : {}),
    });
    let answered = false;
    request.on('response', (res) => {
      answered = true;
      res.resume();
      res.on('end', () => {
        resolve();
        request.destroy();
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (answered) return;
      if (error.code === 'EPIPE' || error.code === 'ECONNRESET') resolve();
      else reject(error);
    });
    if (options.body !== undefined) {
      request.end(options.body);
      return;
    }
    const piece = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const limit = options.declared ?? 100 * MB;
    const pump = (): void => {
      while (!answered && sent + piece.length <= limit) {
        sent += piece.length;
        if (!request.write(piece)) {
          request.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
}

function healthz(target: Target): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(`${target.extenderUrl}/healthz`, { agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(performance.now() - started));
      })
      .on('error', reject);
  });
}

const pod = (requests: Record<string, string>) => ({
  metadata: { name: 'p', namespace: 'default' },
  spec: { containers: [{ name: 'c', resources: { requests } }] },
});
const names = Array.from({ length: 5000 }, (_, i) => `node-${i}`);
const nodePool = (spec: Record<string, unknown>) => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name: 'np' },
  spec: {
    template: { spec: { nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'default' }, requirements: [] } },
    ...spec,
  },
});
const review = (object: unknown): string =>
  JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: { uid: 'u', operation: 'CREATE', kind: { group: 'karpenter.sh', version: 'v1', kind: 'NodePool' }, object },
  });
const deep = `{"Pod":{"metadata":{"name":"p"},"spec":{"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}},"NodeNames":["node-1"]}`;

interface Case {
  name: string;
  server: 'extender' | 'admission';
  path: string;
  request: { body?: string; declared?: number; chunked?: boolean };
}

const cases: Case[] = [
  {
    name: 'baseline: prioritize, 5,000 names',
    server: 'extender',
    path: '/scheduler/prioritize',
    request: { body: JSON.stringify({ Pod: pod({ cpu: '1' }), NodeNames: names }) },
  },
  {
    name: 'baseline: NodePool review',
    server: 'admission',
    path: '/validate',
    request: { body: review(nodePool({ limits: { cpu: '64' } })) },
  },
  { name: '100 MB body, declared', server: 'extender', path: '/scheduler/filter', request: { declared: 100 * MB } },
  { name: '100 MB body, chunked', server: 'extender', path: '/scheduler/filter', request: { chunked: true } },
  { name: '100 MB body, declared', server: 'admission', path: '/validate', request: { declared: 100 * MB } },
  {
    name: '1 MB cpu quantity',
    server: 'extender',
    path: '/scheduler/prioritize',
    request: { body: JSON.stringify({ Pod: pod({ cpu: '1'.repeat(MB) }), NodeNames: ['node-1'] }) },
  },
  {
    name: '1 MB cpu limit (denied)',
    server: 'admission',
    path: '/validate',
    request: { body: review(nodePool({ limits: { cpu: '9'.repeat(MB) } })) },
  },
  {
    name: `worst budget schedule, ${MaxScheduleLength} bytes (denied)`,
    server: 'admission',
    path: '/validate',
    request: {
      body: review(
        nodePool({ disruption: { budgets: [{ nodes: '1', schedule: `${' '.repeat(MaxScheduleLength - 1)}\n`, duration: '1h' }] } }),
      ),
    },
  },
  {
    name: 'budget schedule, 655 bytes (denied)',
    server: 'admission',
    path: '/validate',
    request: { body: review(nodePool({ disruption: { budgets: [{ nodes: '1', schedule: `${' '.repeat(654)}\n`, duration: '1h' }] } })) },
  },
  { name: 'JSON nested 10,000 levels', server: 'extender', path: '/scheduler/prioritize', request: { body: deep } },
  {
    name: 'JSON nested 10,000 levels',
    server: 'admission',
    path: '/validate',
    request: {
      body: `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u","object":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`,
    },
  },
];

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)} ms, max ${sorted[sorted.length - 1]?.toFixed(1)} ms`;
}

async function againstServers(): Promise<void> {
  const child = fork(new URL(import.meta.url).pathname, ['serve'], { stdio: 'inherit' });
  process.on('exit', () => child.kill());
  const target = await new Promise<Target>((resolve) => child.once('message', (m) => resolve(m as Target)));
  const collect = (): Promise<Served[]> =>
    new Promise((resolve) => {
      child.once('message', (m) => resolve(m as Served[]));
      child.send('served');
    });
  console.log('Against the running servers (time at the server: arrival → answer written):');
  for (const c of cases) {
    const health: number[] = [];
    for (let i = 0; i < repeat; i++) {
      const url = `${c.server === 'extender' ? target.extenderUrl : target.admissionUrl}${c.path}`;
      const [, healthMs] = await Promise.all([
        send(url, target.ca, c.request),
        new Promise((r) => setTimeout(r, 5)).then(() => healthz(target)),
      ]);
      health.push(healthMs);
    }
    const records = (await collect()).filter((s) => s.path === c.path);
    const statuses = new Set(records.map((s) => s.status));
    const times = records.map((s) => s.ms);
    console.log(
      `  ${c.server.padEnd(9)} ${c.name.padEnd(42)} status ${[...statuses].join('/')}  ${summary(times)}   /healthz meanwhile: ${summary(health)}`,
    );
  }
  child.send('stop');
}

/** The upstream regex on the worst schedule of `length` bytes, in a child process killed after 10 s. */
function regexBaseline(length: number): Promise<string> {
  return new Promise((resolve) => {
    const child = fork(new URL(import.meta.url).pathname, ['regex', String(length)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve('over 10 s (killed)');
    }, 10_000);
    child.once('message', (ms) => {
      clearTimeout(timer);
      resolve(`${(ms as number).toFixed(1)} ms`);
      child.kill();
    });
  });
}

function runRegex(length: number): void {
  const value = `${' '.repeat(length - 1)}\n`;
  const started = performance.now();
  new RegExp(BudgetSchedulePattern, 'u').test(value);
  process.send?.(performance.now() - started);
}

function patternFields(schema: OpenApiSchema, out: { pattern: string; maxLength: number }[]): { pattern: string; maxLength: number }[] {
  if (schema.pattern !== undefined && schema.maxLength !== undefined) out.push({ pattern: schema.pattern, maxLength: schema.maxLength });
  for (const child of Object.values(schema.properties ?? {})) patternFields(child, out);
  if (schema.items) patternFields(schema.items as OpenApiSchema, out);
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') patternFields(schema.additionalProperties, out);
  return out;
}

function adversarial(length: number): string[] {
  const units = ['a', 'A', '0', '-', '.', ' ', 'a-', 'a.', '0h', 'a ', '- ', '\t', 'a/'];
  const tails = ['', '!', '\n', '-', '.', '/'];
  return units.flatMap((unit) => tails.map((tail) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length - tail.length) + tail));
}

function patternTimes(): void {
  const unique = new Map(CrdDefinitions.flatMap((d) => patternFields(toOpenApi(d.schema), [])).map((f) => [f.pattern, f.maxLength]));
  console.log(
    '\nEvery pattern-checked field, adversarial strings of its maximum length (the slowest string, fastest of 5 runs, after a warm-up pass):',
  );
  for (const [pattern, maxLength] of unique) {
    let worst = 0;
    // One untimed pass first: V8 interprets a new regex before compiling it.
    for (const value of adversarial(maxLength))
      validateStructure({ type: 'string', pattern, maxLength }, value, 'f', [], { reportUnknownFields: false });
    for (const value of adversarial(maxLength)) {
      // The fastest of 5 runs: the check's own cost, without the pauses of a shared machine.
      let best = Infinity;
      for (let run = 0; run < 5; run++) {
        const started = performance.now();
        validateStructure({ type: 'string', pattern, maxLength }, value, 'f', [], { reportUnknownFields: false });
        best = Math.min(best, performance.now() - started);
      }
      worst = Math.max(worst, best);
    }
    console.log(
      `  ${worst.toFixed(3).padStart(8)} ms  max ${String(maxLength).padStart(5)}  ${pattern.length > 70 ? `${pattern.slice(0, 67)}...` : pattern}`,
    );
  }
}

async function main(): Promise<void> {
  await againstServers();
  console.log('\nBaseline: the upstream budget-schedule regex (the check before) on spaces and a newline:');
  for (const length of [32, 64, 96, 128]) console.log(`  ${String(length).padStart(4)} bytes: ${await regexBaseline(length)}`);
  patternTimes();
}

const [mode, argument] = process.argv.slice(2);
(mode === 'serve' ? serve() : mode === 'regex' ? Promise.resolve(runRegex(Number(argument))) : main()).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
