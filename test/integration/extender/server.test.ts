import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import https from 'node:https';
import type { ExtenderNode } from '../../../src/domain/extender/index.js';
import { createLoopbackCertificate } from '../../../src/util/tls.js';
import { createExtenderServer, type RunningExtenderServer, WalkedBodyLimit } from '../../../webhooks/extender/index.js';

const GiB = 2 ** 30;

interface FilterBody {
  Nodes: { metadata?: unknown; items: { metadata: { name: string } }[] } | null;
  NodeNames: string[] | null;
  FailedNodes: Record<string, string>;
  FailedAndUnresolvableNodes: Record<string, string>;
  Error: string;
}
const filterBody = async (res: Response): Promise<FilterBody> => (await res.json()) as FilterBody;

function viewNode(overrides: Partial<ExtenderNode>): ExtenderNode {
  return {
    labels: {},
    taints: [],
    allocatable: { cpu: 4000, memory: 8 * GiB, pods: 110 },
    requested: {},
    pricePerHour: 0.1,
    state: 'ok',
    ...overrides,
  };
}

const view = new Map<string, ExtenderNode>([
  ['worker-1', viewNode({ requested: { cpu: 2000, memory: 4 * GiB } })],
  ['worker-2', viewNode({})],
  ['worker-3', viewNode({ state: 'disrupting' })],
  ['worker-4', viewNode({ state: 'terminating' })],
]);

// The shape kube-scheduler's extender client posts (extender/v1 ExtenderArgs, nodeCacheCapable: true).
const recordedPod = {
  metadata: { name: 'inflate-0', namespace: 'default', uid: '5b0c7d9e-1c7a-4c8e-9f0e-2f5a0f2f7c11' },
  spec: {
    containers: [{ name: 'inflate', image: 'registry.k8s.io/pause:3.9', resources: { requests: { cpu: '1', memory: '1536Mi' } } }],
    tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
    schedulerName: 'default-scheduler',
  },
  status: { phase: 'Pending' },
};

describe('extender server over HTTP', () => {
  let server: RunningExtenderServer;
  const signals: string[] = [];
  const errors: unknown[] = [];

  beforeAll(async () => {
    server = await createExtenderServer({
      view,
      onNeedsCapacity: (key) => void signals.push(key),
      onError: (e) => void errors.push(e),
    }).listen();
  });
  afterAll(async () => {
    await server.close();
  });

  const post = (path: string, body: string, contentType = 'application/json'): Promise<Response> =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body });

  it('answers /healthz', async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
  });

  it('filters NodeNames with capitalised result fields', async () => {
    const res = await post(
      '/scheduler/filter',
      JSON.stringify({ Pod: recordedPod, Nodes: null, NodeNames: ['worker-1', 'worker-2', 'worker-3', 'worker-4', 'worker-9'] }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = await res.json();
    expect(body).toEqual({
      Nodes: null,
      NodeNames: ['worker-1', 'worker-2', 'worker-9'],
      FailedNodes: { 'worker-3': 'node is being disrupted by karpenter-eu' },
      FailedAndUnresolvableNodes: { 'worker-4': 'node is being terminated by karpenter-eu' },
      Error: '',
    });
  });

  it('signals the provisioner when no node is left', async () => {
    signals.length = 0;
    const res = await post('/scheduler/filter', JSON.stringify({ Pod: recordedPod, Nodes: null, NodeNames: ['worker-3', 'worker-4'] }));
    expect(res.status).toBe(200);
    expect((await filterBody(res)).NodeNames).toEqual([]);
    expect(signals).toEqual(['default/inflate-0']);
  });

  it('filters full Nodes and echoes the NodeList', async () => {
    const nodes = {
      apiVersion: 'v1',
      kind: 'NodeList',
      metadata: { resourceVersion: '42' },
      items: [
        {
          metadata: { name: 'n-a', labels: { 'kubernetes.io/hostname': 'n-a' } },
          status: { allocatable: { cpu: '3920m', memory: '7Gi', pods: '110' } },
        },
        {
          metadata: { name: 'n-b' },
          spec: { taints: [{ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }] },
          status: { allocatable: { cpu: '4' } },
        },
      ],
    };
    const res = await post('/scheduler/filter', JSON.stringify({ Pod: recordedPod, Nodes: nodes, NodeNames: null }));
    const body = await filterBody(res);
    expect(body.NodeNames).toBeNull();
    expect(body.Nodes?.metadata).toEqual({ resourceVersion: '42' });
    expect(body.Nodes?.items.map((n) => n.metadata.name)).toEqual(['n-a']);
    expect(body.FailedNodes).toEqual({ 'n-b': 'node is being disrupted by karpenter-eu' });
  });

  it('prioritizes into a top-level HostPriorityList', async () => {
    const res = await post(
      '/scheduler/prioritize',
      JSON.stringify({ Pod: recordedPod, Nodes: null, NodeNames: ['worker-1', 'worker-2', 'ghost'] }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const list = (await res.json()) as { Host: string; Score: number }[];
    expect(list.map((h) => h.Host)).toEqual(['worker-1', 'worker-2', 'ghost']);
    expect(list[0]!.Score).toBeGreaterThan(list[1]!.Score);
    expect(list[2]!.Score).toBe(5);
  });

  it('passes a pod without requests through', async () => {
    const res = await post(
      '/scheduler/filter',
      JSON.stringify({ Pod: { metadata: { name: 'bare' }, spec: { containers: [{ name: 'c' }] } }, NodeNames: ['worker-2'] }),
    );
    expect(res.status).toBe(200);
    expect((await filterBody(res)).NodeNames).toEqual(['worker-2']);
  });

  it('accepts a body sent with another content type', async () => {
    const res = await post('/scheduler/filter', JSON.stringify({ Pod: recordedPod, NodeNames: ['worker-2'] }), 'text/plain');
    expect(res.status).toBe(200);
  });

  it('accepts Go-style whitespace-free bodies as well as indented ones, with a BOM or without', async () => {
    const args = { Pod: recordedPod, Nodes: null, NodeNames: ['worker-2', 'worker-3'] };
    for (const text of [JSON.stringify(args), JSON.stringify(args, null, 2), `\ufeff${JSON.stringify(args)}`]) {
      const res = await post('/scheduler/filter', text);
      expect(res.status).toBe(200);
      expect((await filterBody(res)).NodeNames).toEqual(['worker-2']);
    }
  });

  it('parses bodies above WalkedBodyLimit the general way, with the same answer', async () => {
    const padding = Array.from({ length: 30_000 }, (_, i) => `absent-node-with-a-long-name-${String(i).padStart(8, '0')}`);
    const text = JSON.stringify({ Pod: recordedPod, Nodes: null, NodeNames: ['worker-2', 'worker-3', ...padding] });
    expect(Buffer.byteLength(text)).toBeGreaterThan(WalkedBodyLimit);
    const res = await post('/scheduler/filter', text);
    expect(res.status).toBe(200);
    const body = await filterBody(res);
    expect(body.NodeNames).toEqual(['worker-2', ...padding]);
    expect(body.FailedNodes).toEqual({ 'worker-3': 'node is being disrupted by karpenter-eu' });
    const broken = await post('/scheduler/filter', `${text.slice(0, -2)},]}`);
    expect(broken.status).toBe(400);
  });

  it('names the JSON problem of a broken body', async () => {
    const res = await post('/scheduler/prioritize', '{"Pod": {}, "NodeNames": ["worker-1",]}');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { Error: string }).Error).toMatch(/^handling extender request: body is not valid JSON: /);
  });

  it.each([
    ['invalid JSON', '{"Pod": ', 400],
    ['an empty body', '', 400],
    ['a JSON string', '"hello"', 400],
    ['no Pod', '{"NodeNames": ["a"]}', 400],
    ['NodeNames not a list', '{"Pod": {}, "NodeNames": "a"}', 400],
  ])('answers %s with %s and a message', async (_label, body, status) => {
    const res = await post('/scheduler/filter', body);
    expect(res.status).toBe(status);
    const json = (await res.json()) as { Error: string };
    expect(json.Error).toMatch(/^handling extender request: /);
  });

  it('rejects a malformed quantity as a pass-through, not an error', async () => {
    const pod = { metadata: { name: 'odd' }, spec: { containers: [{ name: 'c', resources: { requests: { cpu: 'lots' } } }] } };
    const res = await post('/scheduler/prioritize', JSON.stringify({ Pod: pod, NodeNames: ['worker-1'] }));
    expect(res.status).toBe(200);
    expect(((await res.json()) as unknown[]).length).toBe(1);
  });

  it('never answers 5xx to fuzzed bodies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue().map((v) => JSON.stringify(v)),
          fc.record({ Pod: fc.jsonValue(), Nodes: fc.jsonValue(), NodeNames: fc.jsonValue() }).map((v) => JSON.stringify(v)),
          fc
            .record({
              Pod: fc.record({
                spec: fc.record({
                  containers: fc.array(
                    fc.record({ resources: fc.record({ requests: fc.dictionary(fc.constantFrom('cpu', 'memory', 'x'), fc.jsonValue()) }) }),
                  ),
                }),
              }),
              NodeNames: fc.array(fc.string()),
            })
            .map((v) => JSON.stringify(v)),
          fc.string(),
        ),
        fc.constantFrom('/scheduler/filter', '/scheduler/prioritize'),
        async (body, path) => {
          const res = await post(path, body);
          await res.arrayBuffer();
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
    expect(errors).toEqual([]);
  });
});

describe('extender server with a failing provisioner signal', () => {
  it('still answers 200 and reports the failure through onError', async () => {
    const errors: unknown[] = [];
    const server = await createExtenderServer({
      view,
      onNeedsCapacity: () => Promise.reject(new Error('batcher closed')),
      onError: (e) => void errors.push(e),
    }).listen();
    try {
      const res = await fetch(`${server.url}/scheduler/filter`, {
        method: 'POST',
        body: JSON.stringify({ Pod: recordedPod, NodeNames: ['worker-4'] }),
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { NodeNames: string[] }).NodeNames).toEqual([]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(errors.map((e) => (e as Error).message)).toEqual(['batcher closed']);
    } finally {
      await server.close();
    }
  });
});

describe('extender server over HTTPS', () => {
  it('serves filter with a loopback certificate', async () => {
    const cert = await createLoopbackCertificate();
    const server = await createExtenderServer({
      view,
      onNeedsCapacity: () => undefined,
      tls: { certPem: cert.certPem, keyPem: cert.keyPem },
    }).listen();
    try {
      expect(server.url.startsWith('https://127.0.0.1:')).toBe(true);
      const body = JSON.stringify({ Pod: recordedPod, Nodes: null, NodeNames: ['worker-2'] });
      const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = https.request(
          `${server.url}/scheduler/filter`,
          { method: 'POST', ca: cert.caPem, headers: { 'content-type': 'application/json' } },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text).NodeNames).toEqual(['worker-2']);
    } finally {
      await server.close();
    }
  });
});
