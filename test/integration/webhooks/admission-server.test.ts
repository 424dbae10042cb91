import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import https from 'node:https';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCertificateAuthority, createLoopbackCertificate, type ServingCertificate } from '../../../src/util/tls.js';
import { createAdmissionServer, InMemoryContextProvider, type RunningAdmissionServer } from '../../../webhooks/admission/index.js';
import { catalogs, defaults, nodePool, ovhClass, req } from '../../unit/domain/admission/fixtures.js';

interface Reply {
  status: number;
  body: string;
  json: () => { apiVersion: string; kind: string; response: Record<string, unknown> };
}

const agent = new https.Agent({ keepAlive: true, maxSockets: 4 });

function send(
  server: RunningAdmissionServer,
  ca: string,
  method: string,
  path: string,
  body?: string | Buffer,
  contentType = 'application/json',
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      `${server.url}${path}`,
      { method, ca, agent, headers: body === undefined ? {} : { 'content-type': contentType } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: text, json: () => JSON.parse(text) });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const review = (object: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: 'a1b2-c3',
      operation: 'CREATE',
      kind: { group: 'karpenter.sh', version: 'v1', kind: (object as { kind?: string }).kind },
      object,
      ...extra,
    },
  });

describe('admission webhook server over HTTPS', () => {
  let cert: ServingCertificate;
  let server: RunningAdmissionServer;
  const errors: unknown[] = [];

  beforeAll(async () => {
    cert = await createLoopbackCertificate();
    const contextProvider = new InMemoryContextProvider({ objects: [ovhClass('default')], catalogs, defaults });
    server = await createAdmissionServer({ tls: cert, contextProvider, bodyLimit: 64 * 1024, onError: (e) => errors.push(e) }).listen(0);
  });
  afterAll(async () => {
    await server.close();
    agent.destroy();
  });

  it('answers /healthz and /readyz', async () => {
    expect((await send(server, cert.caPem, 'GET', '/healthz')).status).toBe(200);
    expect((await send(server, cert.caPem, 'GET', '/readyz')).body).toBe('ok');
  });

  it('denies an invalid NodePool as the API server shows it: uid echoed, 403 status with field, value and fix', async () => {
    const reply = await send(
      server,
      cert.caPem,
      'POST',
      '/validate',
      review(nodePool('np', { requirements: [req('topology.kubernetes.io/zone', 'In', 'eu-west-par-d')] })),
    );
    expect(reply.status).toBe(200);
    const body = reply.json();
    expect(body.apiVersion).toBe('admission.k8s.io/v1');
    expect(body.kind).toBe('AdmissionReview');
    expect(body.response).toMatchObject({ uid: 'a1b2-c3', allowed: false, status: { code: 403, reason: 'Forbidden' } });
    expect((body.response.status as { message: string }).message).toBe(
      'spec.template.spec.requirements[0].values[0]: Unsupported value: "eu-west-par-d": not a zone of region EU-WEST-PAR (did you mean "eu-west-par-a"?); accepted: "eu-west-par-a", "eu-west-par-b", "eu-west-par-c"',
    );
    expect(body.response).not.toHaveProperty('patch');
    expect(body.response).not.toHaveProperty('patchType');
  });

  it('admits a valid NodePool with warnings and no patch from /validate', async () => {
    const body = (
      await send(server, cert.caPem, 'POST', '/validate', review(nodePool('np', { nodeClass: 'missing', limits: { cpu: '64' } })))
    ).json();
    expect(body.response).toMatchObject({ uid: 'a1b2-c3', allowed: true });
    expect(body.response.warnings).toEqual([expect.stringContaining('does not exist yet')]);
    expect(body.response).not.toHaveProperty('patch');
  });

  it('answers /mutate with the defaults that apply as warnings and no patch: nothing is written into the object', async () => {
    const body = (
      await send(
        server,
        cert.caPem,
        'POST',
        '/mutate',
        review(nodePool('np', { requirements: [req('node.kubernetes.io/instance-type', 'In', 'b3-8')] })),
      )
    ).json();
    expect(body.response).toMatchObject({ uid: 'a1b2-c3', allowed: true });
    expect(body.response).not.toHaveProperty('patch');
    expect(body.response).not.toHaveProperty('patchType');
    expect(body.response.warnings).toEqual([
      'NodePool "np": no karpenter.sh/capacity-type requirement, karpenter.sh/capacity-type In [on-demand] applies',
      'NodePool "np": no kubernetes.io/arch requirement, kubernetes.io/arch In [amd64] applies',
    ]);
  });

  it('allows kinds it does not own, untouched', async () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } };
    for (const path of ['/validate', '/mutate']) {
      const body = (await send(server, cert.caPem, 'POST', path, review(cm))).json();
      expect(body.response).toEqual({ uid: 'a1b2-c3', allowed: true });
    }
  });

  it.each([
    ['malformed JSON', '{"apiVersion":', 'malformed JSON'],
    [
      'a review of the wrong kind',
      JSON.stringify({ apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', request: { uid: 'x' } }),
      'accepted: "admission.k8s.io/v1/AdmissionReview"',
    ],
    [
      'no uid',
      JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { operation: 'CREATE', object: {} } }),
      'request.uid is required',
    ],
    ['no request', JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }), 'request is required'],
    [
      'an unknown operation',
      JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { uid: 'u', operation: 'PATCH', object: {} } }),
      'accepted: CREATE, UPDATE, DELETE, CONNECT',
    ],
  ])('answers 400 with a clear message for %s', async (_name, body, message) => {
    const reply = await send(server, cert.caPem, 'POST', '/validate', body);
    expect(reply.status).toBe(400);
    expect(reply.body).toContain(message);
  });

  it('answers 400 for a non-JSON content type', async () => {
    const reply = await send(server, cert.caPem, 'POST', '/mutate', 'hello', 'text/plain');
    expect(reply.status).toBe(400);
    expect(reply.body).toContain('accepted: application/json');
  });

  it('never answers 5xx nor crashes, whatever the body (fuzz)', async () => {
    const bodies = fc.oneof(
      fc.string().map((s) => Buffer.from(s)),
      fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v))),
      fc
        .record({
          uid: fc.string(),
          operation: fc.constantFrom('CREATE', 'UPDATE', 'DELETE', 'CONNECT', 'X'),
          object: fc.jsonValue(),
          oldObject: fc.jsonValue(),
          kind: fc.record({
            kind: fc.constantFrom('NodePool', 'OVHNodeClass', 'NodeClaim', 'Pod', 'ScalewayNodeClass', 'OutscaleNodeClass'),
          }),
        })
        .map((request) => Buffer.from(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request }))),
      fc
        .record({
          spec: fc.jsonValue(),
          kind: fc.constantFrom('NodePool', 'OVHNodeClass'),
          apiVersion: fc.constantFrom('karpenter.sh/v1', 'karpenter.ovhcloud.sh/v1alpha1'),
        })
        .map((object) => Buffer.from(review(object))),
    );
    await fc.assert(
      fc.asyncProperty(bodies, fc.constantFrom('/validate', '/mutate'), async (body, path) => {
        const reply = await send(server, cert.caPem, 'POST', path, body);
        expect(reply.status).toBeLessThan(500);
        if (reply.status === 200) expect(reply.json().response).toHaveProperty('allowed');
      }),
      { numRuns: 150 },
    );
    expect(errors).toEqual([]);
  });
});

describe('certificate reload without restart', () => {
  it('serves a rotated certificate file to new connections', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'admission-certs-'));
    try {
      const first = await (await createCertificateAuthority('first-ca')).issue({ dns: ['localhost'], ips: ['127.0.0.1'] });
      const second = await (await createCertificateAuthority('second-ca')).issue({ dns: ['localhost'], ips: ['127.0.0.1'] });
      const certFile = join(dir, 'tls.crt');
      const keyFile = join(dir, 'tls.key');
      writeFileSync(certFile, first.certPem);
      writeFileSync(keyFile, first.keyPem);
      const contextProvider = new InMemoryContextProvider({ catalogs, defaults });
      const server = await createAdmissionServer({ tls: { certFile, keyFile, pollIntervalMs: 60_000 }, contextProvider }).listen(0);
      try {
        const fresh = (ca: string) =>
          new Promise<number>((resolve, reject) => {
            https
              .get(`${server.url}/healthz`, { ca, agent: false }, (res) => {
                res.resume();
                resolve(res.statusCode ?? 0);
              })
              .on('error', reject);
          });
        expect(await fresh(first.caPem)).toBe(200);
        writeFileSync(certFile, second.certPem);
        writeFileSync(keyFile, second.keyPem);
        server.reloadCertificate();
        expect(await fresh(second.caPem)).toBe(200);
        await expect(fresh(first.caPem)).rejects.toThrow();
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
