import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type * as k8s from '@kubernetes/client-node';
import { buildNodeInfos } from '../../../src/testbed/cluster/scheduler/node-info.js';
import { filterNode, type Snapshot } from '../../../src/testbed/cluster/scheduler/schedule-one.js';
import { fitErrorMessage } from '../../../src/testbed/cluster/scheduler/fit-error.js';
import { feasibleNodesToFind, leastAllocatedScore } from '../../../src/testbed/cluster/scheduler/scoring.js';
import { antiAffinityHolders } from '../../../src/testbed/cluster/scheduler/topology-filters.js';
import { validateExtenderConfig } from '../../../src/testbed/cluster/scheduler/extender-config.js';
import { ExtenderClient } from '../../../src/testbed/cluster/scheduler/extender-client.js';
import { podOn } from './cluster-fixtures.js';

function node(
  name: string,
  extra: { cpu?: string; labels?: Record<string, string>; taints?: k8s.V1Taint[]; unschedulable?: boolean } = {},
): k8s.V1Node {
  return {
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...extra.labels } },
    spec: { taints: extra.taints, unschedulable: extra.unschedulable },
    status: { allocatable: { cpu: extra.cpu ?? '2', memory: '4Gi', pods: '110' } },
  };
}

function snapshotOf(nodes: k8s.V1Node[], pods: k8s.V1Pod[] = []): Snapshot {
  const infos = buildNodeInfos(nodes, pods);
  return { infos, ordered: [...infos.values()], antiAffinityHolders: antiAffinityHolders(infos) };
}

const hostPortPod = (name: string, nodeName?: string): k8s.V1Pod => ({
  metadata: { name, namespace: 'default' },
  spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80, hostPort: 8080 }] }] },
});

describe('scheduler filter plugins', () => {
  const cases: Array<[string, k8s.V1Node, k8s.V1Pod, k8s.V1Pod[], string[]]> = [
    ['fits', node('n'), podOn('p'), [], []],
    ['cordoned', node('n', { unschedulable: true }), podOn('p'), [], ['node(s) were unschedulable']],
    [
      'not ready',
      node('n', { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] }),
      podOn('p'),
      [],
      ['node(s) had untolerated taint {node.kubernetes.io/not-ready: }'],
    ],
    ['PreferNoSchedule is not a filter', node('n', { taints: [{ key: 'k', effect: 'PreferNoSchedule' }] }), podOn('p'), [], []],
    [
      'tolerated',
      node('n', { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] }),
      podOn('p', { tolerations: [{ key: 'k', operator: 'Exists' }] }),
      [],
      [],
    ],
    ['selector', node('n'), podOn('p', { nodeSelector: { disk: 'ssd' } }), [], ["node(s) didn't match Pod's node affinity/selector"]],
    [
      'affinity NotIn',
      node('n', { labels: { zone: 'a' } }),
      podOn('p', {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }],
            },
          },
        },
      }),
      [],
      ["node(s) didn't match Pod's node affinity/selector"],
    ],
    ['cpu', node('n', { cpu: '1' }), podOn('p', {}, {}, '2'), [], ['Insufficient cpu']],
    [
      'cpu used by others',
      node('n', { cpu: '1' }),
      podOn('p', {}, {}, '600m'),
      [{ ...podOn('q', { nodeName: 'n' }, {}, '500m'), metadata: { name: 'q', namespace: 'default' } }],
      ['Insufficient cpu'],
    ],
    ['host port', node('n'), hostPortPod('p'), [hostPortPod('q', 'n')], ["node(s) didn't have free ports for the requested pod ports"]],
  ];
  it.each(cases)('%s', (_name, n, pod, existing, reasons) => {
    const snapshot = snapshotOf([n], existing);
    expect(filterNode(pod, snapshot.ordered[0]!, snapshot)).toEqual(reasons);
  });
});

describe('fit error message', () => {
  it('sorts the "count reason" histogram as kube-scheduler does', () => {
    const message = fitErrorMessage(
      3,
      new Map([
        ['node(s) had untolerated taint {a: }', 1],
        ['Insufficient cpu', 2],
      ]),
    );
    expect(message).toBe(
      '0/3 nodes are available: 1 node(s) had untolerated taint {a: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
  });
});

describe('scoring', () => {
  it('prefers the emptier node', () => {
    const snapshot = snapshotOf([node('a', { cpu: '4' }), node('b', { cpu: '2' })]);
    const requests = { cpu: 500, memory: 0 };
    expect(leastAllocatedScore(snapshot.infos.get('a')!, requests)).toBeGreaterThan(
      leastAllocatedScore(snapshot.infos.get('b')!, requests),
    );
  });

  it('checks all nodes below 100 and a bounded share above (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20_000 }), (n) => {
        const k = feasibleNodesToFind(n);
        expect(k).toBeLessThanOrEqual(n);
        if (n < 100) expect(k).toBe(n);
        else expect(k).toBeGreaterThanOrEqual(Math.min(n, 100));
      }),
    );
  });
});

describe('extender configuration and wire body', () => {
  it('rejects a prioritize verb without a positive weight, as kube-scheduler validation does', () => {
    expect(() => validateExtenderConfig({ urlPrefix: 'http://x', prioritizeVerb: 'prioritize' })).toThrow(/must have a positive weight/);
    expect(() => validateExtenderConfig({ urlPrefix: 'x' })).toThrow(/urlPrefix "x"/);
  });

  it('sends Nodes without nodeCacheCapable and NodeNames with it', () => {
    const pod = podOn('p');
    const nodes = [node('a')];
    expect(new ExtenderClient({ urlPrefix: 'http://x' }).args(pod, nodes)).toEqual({
      Pod: pod,
      Nodes: { metadata: {}, items: nodes },
      NodeNames: null,
    });
    expect(new ExtenderClient({ urlPrefix: 'http://x', nodeCacheCapable: true }).args(pod, nodes)).toEqual({
      Pod: pod,
      Nodes: null,
      NodeNames: ['a'],
    });
  });

  it('is interested only in pods using a managed resource when managedResources is set', () => {
    const client = new ExtenderClient({ urlPrefix: 'http://x', managedResources: [{ name: 'nvidia.com/gpu' }] });
    expect(client.isInterested(podOn('p'))).toBe(false);
    const gpu = podOn('g');
    gpu.spec!.containers[0]!.resources = { limits: { 'nvidia.com/gpu': '1' } };
    expect(client.isInterested(gpu)).toBe(true);
  });
});
