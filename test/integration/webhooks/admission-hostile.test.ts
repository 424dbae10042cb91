import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import https from 'node:https';
import { createLoopbackCertificate, type ServingCertificate } from '../../../src/util/tls.js';
import {
  AdmissionBodyLimit,
  createAdmissionServer,
  InMemoryContextProvider,
  type RunningAdmissionServer,
} from '../../../webhooks/admission/index.js';
import { catalogs, defaults, nodePool, ovhClass } from '../../unit/domain/admission/fixtures.js';

interface Reply {
  status: number;
  body: string;
}

/**
 * POSTs to the server. `declared`: a Content-Length larger than what is written (only `body` is ever sent,
 * and the request is not ended), to see whether the server answers without waiting for the rest.
 */
function post(server: RunningAdmissionServer, ca: string, path: string, body: string, declared?: number): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', 'content-length': declared ?? Buffer.byteLength(body) };
    const request = https.request(`${server.url}${path}`, { method: 'POST', ca, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        request.destroy();
      });
    });
    request.on('error', reject);
    if (declared === undefined) request.end(body);
    else request.write(body);
  });
}

const review = (object: unknown): string =>
  JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: { uid: 'u-1', operation: 'CREATE', kind: { group: 'karpenter.sh', version: 'v1', kind: 'NodePool' }, object },
  });

const denial = (reply: Reply): string => {
  const response = (JSON.parse(reply.body) as { response: { allowed: boolean; status?: { message: string } } }).response;
  expect(response.allowed).toBe(false);
  return response.status?.message ?? '';
};

describe('admission webhooks under hostile requests', () => {
  let cert: ServingCertificate;
  let server: RunningAdmissionServer;
  const errors: unknown[] = [];

  beforeAll(async () => {
    cert = await createLoopbackCertificate();
    const contextProvider = new InMemoryContextProvider({ objects: [ovhClass('default')], catalogs, defaults });
    server = await createAdmissionServer({ tls: cert, contextProvider, onError: (e) => errors.push(e) }).listen(0);
  });
  afterAll(async () => {
    await server.close();
  });

  const healthy = async (): Promise<void> => {
    const reply = await new Promise<number>((resolve, reject) =>
      https.get(`${server.url}/healthz`, { ca: cert.caPem, agent: false }, (res) => resolve(res.statusCode ?? 0)).on('error', reject),
    );
    expect(reply).toBe(200);
  };

  it('answers 413 to a declared 100 MB AdmissionReview without waiting for its body', async () => {
    const reply = await post(server, cert.caPem, '/validate', '{"apiVersion":', 100 * 1000 * 1000);
    expect(reply.status).toBe(413);
    expect(reply.body).toBe(
      `decoding AdmissionReview: the body is 100000000 bytes, over the ${AdmissionBodyLimit}-byte limit of this endpoint; accepted: at most ${AdmissionBodyLimit} bytes`,
    );
    await healthy();
  });

  it('takes an UPDATE review of two 3 MiB objects (the API server limit per object)', async () => {
    const big = { ...nodePool('np'), metadata: { name: 'np', annotations: { a: 'x'.repeat(3 * 1024 * 1024 - 1024) } } };
    const body = JSON.stringify({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: {
        uid: 'u-2',
        operation: 'UPDATE',
        kind: { group: 'karpenter.sh', version: 'v1', kind: 'NodePool' },
        object: big,
        oldObject: big,
      },
    });
    expect(body.length).toBeGreaterThan(2 * 3 * 1024 * 1024 - 4096);
    expect((await post(server, cert.caPem, '/validate', body)).status).toBe(200);
  });

  it('answers 400 to JSON nested 10,000 levels deep, naming the limit', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    for (const path of ['/validate', '/mutate']) {
      const reply = await post(
        server,
        cert.caPem,
        path,
        `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u","object":${deep}}}`,
      );
      expect(reply.status).toBe(400);
      expect(reply.body).toContain('nests deeper than 100 levels');
    }
    expect(errors).toEqual([]);
    await healthy();
  });

  it('denies a budget schedule of 655 bytes of backtracking bait for its length, at once', async () => {
    const schedule = `${' '.repeat(654)}\n`;
    const reply = await post(
      server,
      cert.caPem,
      '/validate',
      review(nodePool('np', { extra: { disruption: { budgets: [{ nodes: '10%', schedule, duration: '1h' }] } } })),
    );
    expect(denial(reply)).toContain('spec.disruption.budgets[0].schedule: Too long: may not be more than 256 bytes');
    await healthy();
  });

  it('denies the worst budget schedule of its maximum length by its pattern, at once', async () => {
    const schedule = `${' '.repeat(255)}\n`;
    const reply = await post(
      server,
      cert.caPem,
      '/validate',
      review(nodePool('np', { extra: { disruption: { budgets: [{ nodes: '10%', schedule, duration: '1h' }] } } })),
    );
    expect(denial(reply)).toContain('spec.disruption.budgets[0].schedule: Invalid value');
  });

  it('denies a 1 MB cpu limit for its length, without echoing it', async () => {
    const reply = await post(server, cert.caPem, '/validate', review(nodePool('np', { limits: { cpu: '9'.repeat(1024 * 1024) } })));
    const message = denial(reply);
    expect(message).toContain('spec.limits[cpu]: Too long: may not be more than 64 bytes');
    expect(reply.body.length).toBeLessThan(4096);
    await healthy();
  });
});
