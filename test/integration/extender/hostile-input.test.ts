import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { ExtenderNode } from '../../../src/domain/extender/index.js';
import { createExtenderServer, ExtenderBodyLimit, type RunningExtenderServer, WalkedBodyLimit } from '../../../webhooks/extender/index.js';

const GiB = 2 ** 30;
const node = (overrides: Partial<ExtenderNode> = {}): ExtenderNode => ({
  labels: {},
  taints: [],
  allocatable: { cpu: 4000, memory: 8 * GiB, pods: 110 },
  requested: {},
  pricePerHour: 0.1,
  state: 'ok',
  ...overrides,
});
const view = new Map<string, ExtenderNode>([
  ['worker-1', node()],
  ['worker-2', node()],
]);
const pod = (requests: Record<string, string> = { cpu: '1' }) => ({
  metadata: { name: 'p', namespace: 'default' },
  spec: { containers: [{ name: 'c', resources: { requests } }] },
});

interface Answer {
  status: number;
  body: string;
}

/**
 * Declares `declared` bytes (or none: chunked) and writes spaces in 64 KiB pieces until the server answers or
 * `writeAtMost` bytes are out, never ending the request; tears it down once answered.
 */
function upload(url: string, declared: number | undefined, writeAtMost: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-type': 'application/json' };
    if (declared !== undefined) headers['content-length'] = declared;
    const request = http.request(url, { method: 'POST', headers, agent: false });
    let sent = 0;
    let answered = false;
    const piece = Buffer.alloc(64 * 1024, 0x20);
    request.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        request.destroy();
      });
    });
    request.on('error', (error) => (answered ? undefined : reject(error)));
    const pump = (): void => {
      while (!answered && sent < writeAtMost) {
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

const nested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('extender under hostile requests', () => {
  let server: RunningExtenderServer;
  const errors: unknown[] = [];

  beforeAll(async () => {
    server = await createExtenderServer({ view, onNeedsCapacity: () => undefined, onError: (e) => void errors.push(e) }).listen();
  });
  afterAll(async () => {
    await server.close();
  });

  const post = (path: string, body: string): Promise<Response> =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const healthy = async (): Promise<void> => expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

  it('answers 413 to a declared 95 MB body before reading it, naming the limit, and stays healthy', async () => {
    // Only 2 MiB of the declared 95 MB are ever written: an answer at all means the server did not wait for the rest.
    const answer = await upload(`${server.url}/scheduler/filter`, 95 * 1024 * 1024, 2 * 1024 * 1024);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ Error: expect.stringContaining(`over the ${ExtenderBodyLimit}-byte limit`) as unknown });
    await healthy();
  });

  it('answers 413 to a body without Content-Length once it passes 1 MiB, without waiting for the rest', async () => {
    const answer = await upload(`${server.url}/scheduler/prioritize`, undefined, ExtenderBodyLimit + 4 * 1024 * 1024);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({
      Error: expect.stringContaining('sent without Content-Length, is larger than the 1048576 bytes accepted that way') as unknown,
    });
    await healthy();
  });

  it('sizes the limit above the largest legitimate NodeNames call: 5,000 names of 253 bytes', async () => {
    const names = Array.from({ length: 5000 }, (_, i) => `${String(i).padStart(5, '0')}${'n'.repeat(248)}`);
    const res = await post('/scheduler/prioritize', JSON.stringify({ Pod: pod(), NodeNames: names }));
    expect(res.status).toBe(200);
    expect(((await res.json()) as unknown[]).length).toBe(5000);
  });

  it('refuses a 1 MB cpu quantity on prioritize (the verb that reads requests) with 400 naming the resource and the cap', async () => {
    const res = await post(
      '/scheduler/prioritize',
      JSON.stringify({ Pod: pod({ cpu: '1'.repeat(1024 * 1024) }), NodeNames: ['worker-1'] }),
    );
    expect(res.status).toBe(400);
    const { Error: message } = (await res.json()) as { Error: string };
    expect(message).toContain('parsing resource "cpu"');
    expect(message).toContain('1048576 characters long; at most 64 are accepted');
    expect(message.length).toBeLessThan(1000);
    await healthy();
  });

  it.each([
    ['in the Pod of a NodeNames call', (deep: string) => `{"Pod":{"metadata":{"name":"p"},"spec":{"x":${deep}}},"NodeNames":["worker-1"]}`],
    [
      'in a body the general parser reads',
      (deep: string) => `{"Pod":{"metadata":{"name":"p"},"spec":{"x":${deep}}},"NodeNames":["worker-\\u0031"]}`,
    ],
    [
      'in a body above WalkedBodyLimit',
      (deep: string) =>
        `{"Pod":{"metadata":{"name":"p"},"spec":{"x":${deep}}},"NodeNames":["worker-1"],"pad":"${'x'.repeat(WalkedBodyLimit)}"}`,
    ],
  ])('answers 400 to JSON nested 10,000 levels deep %s', async (_where, body) => {
    for (const path of ['/scheduler/filter', '/scheduler/prioritize']) {
      const res = await post(path, body(nested(10_000)));
      expect(res.status).toBe(400);
      expect(((await res.json()) as { Error: string }).Error).toContain('nests deeper than 100 levels');
    }
    expect(errors).toEqual([]);
    await healthy();
  });

  it('still reads JSON nested 90 levels deep', async () => {
    const res = await post(
      '/scheduler/prioritize',
      `{"Pod":{"metadata":{"name":"p"},"spec":{"x":${nested(90)}}},"NodeNames":["worker-1"]}`,
    );
    expect(res.status).toBe(200);
  });
});
