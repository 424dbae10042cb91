/**
 * The extender answers NodeNames calls of the service's view on the request's bytes (names found by their
 * bytes, scored from columns, answers written from the body's spans). These tests hold that path to the
 * general one (names as strings, view.get per name, encode.ts) over HTTP: same status, same bytes, for
 * recorded-shaped bodies, awkward names, odd pods and damaged bodies, while the cluster changes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import type { NodeClaim } from '../../../src/apis/index.js';
import { loadCatalog } from '../../../src/catalog/index.js';
import type { ExtenderClusterView } from '../../../src/domain/extender/index.js';
import { clusterStateExtenderView } from '../../../src/views/extender-view.js';
import { CatalogPriceBook } from '../../../src/views/price-book.js';
import { ClusterState } from '../../../src/state/index.js';
import { FakeClock } from '../../../src/util/clock.js';
import { createExtenderServer, type RunningExtenderServer } from '../../../webhooks/extender/index.js';
import { damage, damaged } from '../../unit/webhooks/extender/damaged-bodies.js';

const flavors = ['b3-8', 'b3-16', 'c3-4', 'unpriced-flavor'];
// Names of the nodes the cluster holds: MKS-shaped, Outscale-shaped, short, all digits (an array index as an
// object key, which JSON objects list first), one the size of a word, one of 63 characters.
const knownNames = [
  ...Array.from({ length: 24 }, (_, i) => `karpenter-${flavors[i % 4]}-eu-west-par-a-node-${(0x1f2e3d + i * 7919).toString(16)}`),
  'ip-10-0-1-23.eu-west-2.compute.internal',
  'ip-10-0-1-24.eu-west-2.compute.internal',
  'n1',
  'abcd',
  '12345',
  '0',
  'x'.repeat(63),
];

function node(name: string, i: number): V1Node {
  const gpu: Record<string, string> = i % 7 === 3 ? { 'nvidia.com/gpu': '1' } : {};
  return {
    metadata: {
      name,
      labels: {
        'karpenter-eu.io/cloud': 'ovhcloud',
        'node.kubernetes.io/instance-type': flavors[i % 4] as string,
        'topology.kubernetes.io/zone': 'eu-west-par-a',
      },
    },
    spec: { providerID: `openstack:///${name}` },
    status: { allocatable: { cpu: `${2 + (i % 3) * 2}`, memory: `${4 + (i % 5) * 4}Gi`, pods: '110', ...gpu } },
  };
}

function claim(name: string, deleting: boolean): NodeClaim {
  return {
    metadata: {
      name: `claim-${name}`,
      labels: { 'karpenter.sh/nodepool': 'default' },
      ...(deleting ? { deletionTimestamp: new Date(0).toISOString() } : {}),
    },
    spec: { nodeClassRef: { group: 'g', kind: 'K', name: 'n' }, requirements: [] },
    status: { providerID: `openstack:///${name}` },
  } as unknown as NodeClaim;
}

function boundPod(name: string, nodeName: string, cpu: number): V1Pod {
  return {
    metadata: { name, namespace: 'default', uid: name },
    spec: { nodeName, containers: [{ name: 'c', resources: { requests: { cpu: `${cpu}m`, memory: `${cpu * 2}Mi` } } }] },
    status: { phase: 'Running' },
  };
}

/** The cluster the view follows: nodes in every state the extender tells apart. */
function cluster(): { state: ClusterState; view: ExtenderClusterView } {
  const state = new ClusterState({ clock: new FakeClock() });
  const view = clusterStateExtenderView(state, new CatalogPriceBook({ ovhcloud: loadCatalog('ovhcloud') }));
  const outlook = new Map<string, 'drifted' | 'consolidation-candidate'>();
  knownNames.forEach((name, i) => {
    state.updateNode(node(name, i));
    state.updateNodeClaim(claim(name, i % 6 === 5));
    for (let j = 0; j < i % 4; j++) state.updatePod(boundPod(`p-${i}-${j}`, name, 250 * (j + 1)));
    if (i % 6 === 1) outlook.set(name, 'drifted');
    if (i % 6 === 2) outlook.set(name, 'consolidation-candidate');
  });
  state.markForDeletion(...knownNames.filter((_, i) => i % 6 === 4).map((name) => `openstack:///${name}`));
  state.setDisruptionOutlook(outlook);
  return { state, view };
}

const pods: Record<string, unknown> = {
  plain: {
    metadata: { name: 'inflate-0', namespace: 'default' },
    spec: { containers: [{ name: 'c', resources: { requests: { cpu: '500m', memory: '1Gi' } } }] },
  },
  gpu: {
    metadata: { name: 'train-0', namespace: 'ml' },
    spec: { containers: [{ name: 'c', resources: { requests: { cpu: '1', memory: '2Gi', 'nvidia.com/gpu': '1' } } }] },
  },
  noRequests: { metadata: { name: 'idle', namespace: 'default' }, spec: { containers: [{ name: 'c' }] } },
  daemonSet: {
    metadata: {
      name: 'ds-x',
      namespace: 'kube-system',
      ownerReferences: [{ kind: 'DaemonSet', name: 'ds', uid: 'u', apiVersion: 'apps/v1', controller: true }],
    },
    spec: { containers: [{ name: 'c' }] },
  },
  badQuantity: { metadata: { name: 'bad' }, spec: { containers: [{ name: 'c', resources: { requests: { cpu: 'lots' } } }] } },
  notAnObject: 'pod',
};

const nodeNameArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...knownNames) },
  { weight: 2, arbitrary: fc.stringMatching(/^[a-z0-9]([-a-z0-9.]{0,30}[a-z0-9])?$/) },
  { weight: 1, arbitrary: fc.constantFrom('', 'a"b', 'a\\b', 'tab\there', 'nœud', '😀', '\u007f', 'n\u0031', '99999999999', '007') },
  { weight: 1, arbitrary: fc.string() },
);
const bodyArb = fc.record({
  pod: fc.constantFrom(...Object.keys(pods)),
  names: fc.array(nodeNameArb, { maxLength: 60 }),
  key: fc.constantFrom('NodeNames', 'nodenames', 'NODENAMES'),
  nodes: fc.constantFrom<'null' | 'absent'>('null', 'absent'),
  space: fc.constantFrom(undefined, 0, 2, '\t'),
});

function bodyText(b: { pod: string; names: string[]; key: string; nodes: 'null' | 'absent'; space: string | number | undefined }): string {
  return JSON.stringify({ Pod: pods[b.pod], ...(b.nodes === 'null' ? { Nodes: null } : {}), [b.key]: b.names }, null, b.space);
}

async function answer(
  server: RunningExtenderServer,
  verb: string,
  body: Buffer,
): Promise<{ status: number; body: Buffer; type: string | null }> {
  const res = await fetch(`${server.url}/scheduler/${verb}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()), type: res.headers.get('content-type') };
}

/** A fresh cluster served twice: on the request bytes (the service's view) and the general way (the same view without nodesNamed). */
async function servedTwice() {
  const { state, view } = cluster();
  const signals = { bytes: [] as string[], strings: [] as string[] };
  const onBytes = await createExtenderServer({ view, onNeedsCapacity: (key) => void signals.bytes.push(key) }).listen();
  const onStrings = await createExtenderServer({
    view: { get: (name) => view.get(name) },
    onNeedsCapacity: (key) => void signals.strings.push(key),
  }).listen();
  return {
    state,
    signals,
    onBytes,
    close: () => Promise.all([onBytes.close(), onStrings.close()]),
    async expectSameAnswers(body: Buffer): Promise<void> {
      for (const verb of ['filter', 'prioritize']) {
        const [fast, general] = await Promise.all([answer(onBytes, verb, body), answer(onStrings, verb, body)]);
        expect({ verb, status: fast.status, type: fast.type, body: fast.body.toString('utf8') }).toEqual({
          verb,
          status: general.status,
          type: general.type,
          body: general.body.toString('utf8'),
        });
        expect(fast.body.equals(general.body)).toBe(true);
      }
    },
  };
}

describe('extender NodeNames calls on the request bytes', () => {
  let served: Awaited<ReturnType<typeof servedTwice>>;
  beforeEach(async () => {
    served = await servedTwice();
  });
  afterEach(async () => {
    await served.close();
  });

  it('answers a recorded-shaped call over every known node as the general path does, with the scheduler-visible reasons', async () => {
    const body = Buffer.from(JSON.stringify({ Pod: pods.plain, Nodes: null, NodeNames: [...knownNames].reverse() }));
    await served.expectSameAnswers(body);
    const filtered = (await (await fetch(`${served.onBytes.url}/scheduler/filter`, { method: 'POST', body })).json()) as {
      NodeNames: string[];
      FailedNodes: Record<string, string>;
      FailedAndUnresolvableNodes: Record<string, string>;
    };
    expect(Object.values(filtered.FailedNodes)).toContain('node is being disrupted by karpenter-eu');
    expect(Object.values(filtered.FailedAndUnresolvableNodes)).toContain('node is being terminated by karpenter-eu');
    expect(
      filtered.NodeNames.length + Object.keys(filtered.FailedNodes).length + Object.keys(filtered.FailedAndUnresolvableNodes).length,
    ).toBe(knownNames.length);
  });

  it.each([
    ['no names', { Pod: pods.plain, NodeNames: [] }],
    [
      'only nodes being taken away (the provisioner signal)',
      { Pod: pods.plain, NodeNames: knownNames.filter((_, i) => i % 6 === 4 || i % 6 === 5) },
    ],
    ['an all-digit failed name and a duplicate', { Pod: pods.plain, NodeNames: ['12345', '0', knownNames[4], knownNames[4], 'abcd'] }],
    ['names the view does not know', { Pod: pods.plain, NodeNames: ['ghost-1', knownNames[0], 'ghost-2'] }],
    ['an escaped name that decodes to a known one', { Pod: pods.plain, NodeNames: ['__N1__'] }],
    ['a raw control character in an unknown name', { Pod: pods.plain, NodeNames: ['__CTRL__'] }],
    ['a GPU pod', { Pod: pods.gpu, NodeNames: knownNames }],
    ['a DaemonSet pod', { Pod: pods.daemonSet, NodeNames: knownNames }],
    ['a pod that is not an object', { Pod: pods.notAnObject, NodeNames: knownNames }],
  ])('answers %s as the general path does', async (_label, args) => {
    const text = JSON.stringify(args).replace('"__N1__"', '"n\\u0031"').replace('"__CTRL__"', '"a\u0001b"');
    await served.expectSameAnswers(Buffer.from(text));
    expect(served.signals.bytes).toEqual(served.signals.strings);
  });

  it('answers any NodeNames body as the general path does, while the cluster changes (property)', async () => {
    let step = 0;
    await fc.assert(
      fc.asyncProperty(bodyArb, async (b) => {
        // Between calls a pod binds, a node leaves or comes back: the view's slots and columns must follow.
        const i = step++ % knownNames.length;
        const name = knownNames[i] as string;
        if (step % 5 === 0) served.state.deleteNode(node(name, i));
        else if (step % 5 === 1) served.state.updateNode(node(name, i));
        else served.state.updatePod(boundPod(`churn-${step}`, name, 100 + (step % 7) * 50));
        await served.expectSameAnswers(Buffer.from(bodyText(b)));
      }),
      { numRuns: 120 },
    );
  });

  it('answers damaged bodies as the general path does: the same 400 or the same answer (property)', async () => {
    await fc.assert(
      fc.asyncProperty(bodyArb, damage, async (b, d) => {
        await served.expectSameAnswers(damaged(Buffer.from(bodyText(b)), d));
      }),
      { numRuns: 150 },
    );
  });
});
