// Each request port reads at most its budget of body bytes at once, whatever the size of each body: beyond it a
// request is answered 429 with Retry-After before its body is read; one client holds at most half of it while
// another still gets through; a body larger than the whole budget is refused 413 (it could never be read).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import https from 'node:https';
import { createLoopbackCertificate, type ServingCertificate } from '../../../src/util/tls.js';
import { createAdmissionServer, InMemoryContextProvider } from '../../../webhooks/admission/index.js';
import { createExtenderServer } from '../../../webhooks/extender/index.js';

const MiB = 1024 * 1024;
const Budget = 4 * MiB;

interface Answer {
  status: number;
  retryAfter?: string;
  body: string;
}

interface Held {
  /** Ends the held request (closes its connection): its bytes are released. */
  drop(): void;
}

/**
 * Declares `declared` bytes from source address `from` and writes `write` of them, never ending the request unless
 * `write` is the whole body. Resolves with the answer, or (for a held body) once the bytes are out.
 */
function request(
  url: string,
  opts: { from: string; declared: number; write: number; ca?: string },
): { answer: Promise<Answer>; held: Held } {
  const client = url.startsWith('https:') ? https : http;
  const req = client.request(url, {
    method: 'POST',
    agent: false,
    localAddress: opts.from,
    ...(opts.ca ? { ca: opts.ca } : {}),
    headers: { 'content-type': 'application/json', 'content-length': opts.declared },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const retryAfter = res.headers['retry-after'];
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ...(retryAfter ? { retryAfter } : {}) });
        req.destroy();
      });
    });
    req.on('error', reject);
  });
  answer.catch(() => undefined);
  const body = Buffer.alloc(opts.write, 0x20);
  if (opts.write === opts.declared) req.end(body);
  else req.write(body);
  return { answer, held: { drop: () => req.destroy() } };
}

const json = (value: unknown): { declared: number; body: string } => {
  const body = JSON.stringify(value);
  return { declared: Buffer.byteLength(body), body };
};

/** A request whose whole body is sent (a small valid call). */
function send(url: string, from: string, value: unknown, ca?: string): Promise<Answer> {
  const { body } = json(value);
  return new Promise((resolve, reject) => {
    const client = url.startsWith('https:') ? https : http;
    const req = client.request(
      url,
      { method: 'POST', agent: false, localAddress: from, ...(ca ? { ca } : {}), headers: { 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 200));

describe('the extender port under its budget of request bytes', () => {
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const server = await createExtenderServer({ view: new Map(), onNeedsCapacity: () => undefined, requestBudget: Budget }).listen();
    url = `${server.url}/scheduler/filter`;
    close = () => server.close();
  });
  afterAll(async () => close());

  it('answers 429 with Retry-After past the budget, before reading the body, in the extender error shape', async () => {
    const first = request(url, { from: '127.0.0.2', declared: 2 * MiB, write: 64 * 1024 });
    const second = request(url, { from: '127.0.0.3', declared: 2 * MiB, write: 64 * 1024 });
    await settle();
    // 4 MiB held by two clients: a third client's 1 MiB waits for none of it to be read.
    const third = await request(url, { from: '127.0.0.4', declared: MiB, write: 64 * 1024 }).answer;
    expect(third.status).toBe(429);
    expect(third.retryAfter).toBe('1');
    expect(JSON.parse(third.body)).toEqual({
      Error: 'handling extender request: too many request bytes in flight (at most 4194304 bytes at once on this port); retry after 1s',
    });
    // A call without a body (the probe) never waits on the budget.
    expect((await fetch(url.replace('/scheduler/filter', '/healthz'))).status).toBe(200);
    first.held.drop();
    second.held.drop();
    await settle();
    const after = await send(url, '127.0.0.4', { Pod: { metadata: { name: 'p', namespace: 'default' }, spec: {} }, NodeNames: [] });
    expect(after.status).toBe(200);
  });

  it('lets one client hold at most half the budget while another still gets through', async () => {
    const hog = request(url, { from: '127.0.0.5', declared: MiB, write: 64 * 1024 });
    const hog2 = request(url, { from: '127.0.0.5', declared: MiB, write: 64 * 1024 });
    await settle();
    const third = await request(url, { from: '127.0.0.5', declared: MiB, write: 64 * 1024 }).answer;
    expect(third.status).toBe(429);
    const other = await send(url, '127.0.0.6', { Pod: { metadata: { name: 'p', namespace: 'default' }, spec: {} }, NodeNames: [] });
    expect(other.status).toBe(200);
    hog.held.drop();
    hog2.held.drop();
    await settle();
  });

  it('refuses a body larger than the whole budget with 413, not 429 (it could never be read)', async () => {
    const answer = await request(url, { from: '127.0.0.7', declared: Budget + 1, write: 64 * 1024 }).answer;
    expect(answer.status).toBe(413);
    expect(answer.body).toContain(`over the ${Budget}-byte limit of this endpoint`);
  });
});

describe('the webhook port under its budget of request bytes', () => {
  let cert: ServingCertificate;
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    cert = await createLoopbackCertificate();
    const contextProvider = new InMemoryContextProvider({ objects: [], catalogs: {}, defaults: { gpuTaint: true, globalCredentials: {} } });
    const server = await createAdmissionServer({ tls: cert, contextProvider, requestBudget: Budget }).listen();
    url = `${server.url}/validate`;
    close = () => server.close();
  });
  afterAll(async () => close());

  it('answers 429 with Retry-After in plain text past the budget, and reviews again once the bytes are released', async () => {
    const held = [
      request(url, { from: '127.0.0.2', declared: 2 * MiB, write: 64 * 1024, ca: cert.caPem }),
      request(url, { from: '127.0.0.3', declared: 2 * MiB, write: 64 * 1024, ca: cert.caPem }),
    ];
    await settle();
    const refused = await request(url, { from: '127.0.0.4', declared: MiB, write: 64 * 1024, ca: cert.caPem }).answer;
    expect(refused).toEqual({
      status: 429,
      retryAfter: '1',
      body: 'too many request bytes in flight (at most 4194304 bytes at once on this port); retry after 1s',
    });
    for (const h of held) h.held.drop();
    await settle();
    const review = {
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: { uid: 'u', operation: 'DELETE', kind: { group: 'karpenter.sh', version: 'v1', kind: 'NodePool' }, oldObject: {} },
    };
    const answered = await send(url, '127.0.0.4', review, cert.caPem);
    expect(answered.status).toBe(200);
    expect((JSON.parse(answered.body) as { response: { uid: string } }).response.uid).toBe('u');
  });
});
