/**
 * A flood of ordinary-looking large requests against the operator's listeners: many concurrent bodies, each
 * under the endpoint's size limit, all sent at once. Reports each request's outcome and the peak resident
 * memory (VmHWM) of the target process, read from /proc.
 */
import http from 'node:http';
import https from 'node:https';
import { readFile } from 'node:fs/promises';

export interface FloodOutcome {
  /** How many answers had each status (0: the connection failed before an answer). */
  statuses: Record<number, number>;
  /** The Retry-After header of the 429 answers (distinct values). */
  retryAfter: string[];
  /** One body of a 429 answer, if any. */
  refusal?: string;
  errors: Record<string, number>;
}

/**
 * An AdmissionReview of a NodePool of about `bytes` bytes: annotations of short values, the shape that costs
 * the most heap per byte once parsed (one string and one property per ~60 bytes).
 */
export function largeAdmissionReview(bytes: number): Buffer {
  const annotations: Record<string, string> = {};
  for (let i = 0; i * 60 < bytes; i++) annotations[`flood.example.com/key-${i}`] = `value-${i}-${'v'.repeat(20)}`;
  return Buffer.from(
    JSON.stringify({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: {
        uid: 'flood',
        operation: 'CREATE',
        kind: { group: 'karpenter.sh', version: 'v1', kind: 'NodePool' },
        object: { apiVersion: 'karpenter.sh/v1', kind: 'NodePool', metadata: { name: 'flood', annotations }, spec: {} },
      },
    }),
  );
}

/** ExtenderArgs of about `bytes` bytes: a pod and full Node objects with many labels (parsed by express.json). */
export function largeExtenderArgs(bytes: number): Buffer {
  const nodes: unknown[] = [];
  for (let i = 0; nodes.length * 4000 < bytes; i++) {
    const labels: Record<string, string> = {};
    for (let l = 0; l < 60; l++) labels[`flood.example.com/label-${l}`] = `value-${i}-${l}`;
    nodes.push({ metadata: { name: `node-${i}`, labels }, status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } } });
  }
  return Buffer.from(
    JSON.stringify({ Pod: { metadata: { name: 'flood', namespace: 'default' }, spec: { containers: [] } }, Nodes: { items: nodes } }),
  );
}

interface Answer {
  status: number;
  retryAfter?: string;
  body?: string;
  error?: string;
}

function send(url: string, body: Buffer): Promise<Answer> {
  return new Promise((resolve) => {
    const client = url.startsWith('https:') ? https : http;
    const request = client.request(
      url,
      {
        method: 'POST',
        agent: false,
        rejectUnauthorized: false,
        headers: { 'content-type': 'application/json', 'content-length': body.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', () => undefined);
        res.on('end', () => {
          const retryAfter = res.headers['retry-after'];
          resolve({ status: res.statusCode ?? 0, ...(retryAfter ? { retryAfter } : {}), body: Buffer.concat(chunks).toString('utf8') });
          request.destroy();
        });
      },
    );
    // A refused request's connection is closed under the rest of its body: the answer may come first, or the reset.
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ status: 0, error: error.code ?? error.message }));
    request.end(body);
  });
}

/** `count` concurrent POSTs of `body` to `url`, all started at once. */
export async function flood(url: string, body: Buffer, count: number): Promise<FloodOutcome> {
  const answers = await Promise.all(Array.from({ length: count }, () => send(url, body)));
  const outcome: FloodOutcome = { statuses: {}, retryAfter: [], errors: {} };
  for (const a of answers) {
    outcome.statuses[a.status] = (outcome.statuses[a.status] ?? 0) + 1;
    if (a.error) outcome.errors[a.error] = (outcome.errors[a.error] ?? 0) + 1;
    if (a.status === 429) {
      if (a.retryAfter && !outcome.retryAfter.includes(a.retryAfter)) outcome.retryAfter.push(a.retryAfter);
      outcome.refusal ??= a.body;
    }
  }
  return outcome;
}

/** The peak resident set of a process (VmHWM), in MiB; undefined once the process is gone. */
export async function peakRssMiB(pid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kib = /^VmHWM:\s+(\d+) kB/m.exec(status)?.[1];
    return kib === undefined ? undefined : Number(kib) / 1024;
  } catch {
    return undefined;
  }
}

/** The current resident set of a process (VmRSS), in MiB. */
export async function rssMiB(pid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kib = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
    return kib === undefined ? undefined : Number(kib) / 1024;
  } catch {
    return undefined;
  }
}
