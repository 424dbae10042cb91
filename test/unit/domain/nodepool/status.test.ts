import { describe, expect, it } from 'vitest';
import type { NodePool } from '../../../../src/apis/v1/nodepool.js';
import { schedulingNodePool } from '../../../../src/controllers/provisioning/scheduling-input.js';
import { desiredNodePoolStatus, nodePoolNotReadyMessage, nodePoolReady, statusDiffers } from '../../../../src/domain/nodepool/index.js';

const GiB = 2 ** 30;
const pool = (status?: NodePool['status']): NodePool =>
  ({
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'default', generation: 3 },
    spec: {
      template: { spec: { nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'default' }, requirements: [] } },
    },
    ...(status ? { status } : {}),
  }) as NodePool;
const t0 = Date.UTC(2026, 0, 1);

describe('desiredNodePoolStatus', () => {
  it.each([
    ['the NodeClass exists', { found: true }, 'True', 'NodeClassReady', ''],
    [
      'the NodeClass is missing',
      { found: false },
      'False',
      'NodeClassNotFound',
      'OVHNodeClass "default" does not exist; create it or fix spec.template.spec.nodeClassRef',
    ],
    [
      'the NodeClass is being deleted',
      { found: true, deleting: true },
      'False',
      'NodeClassTerminating',
      'OVHNodeClass "default" is being deleted',
    ],
    [
      'the NodeClass says it is not ready',
      { found: true, ready: { status: 'False', message: 'Secret ovh lacks consumerKey' } },
      'False',
      'NodeClassNotReady',
      'OVHNodeClass "default" is not ready: Secret ovh lacks consumerKey',
    ],
  ] as const)('%s', (_label, nodeClass, status, reason, message) => {
    const desired = desiredNodePoolStatus({ nodePool: pool(), nodeClass, now: t0 });
    expect(desired.conditions?.map((c) => [c.type, c.status, c.reason, c.message])).toEqual([
      ['NodeClassReady', status, reason, message],
      ['Ready', status, status === 'True' ? 'Ready' : reason, message],
    ]);
    expect(desired.conditions?.every((c) => c.observedGeneration === 3 && c.lastTransitionTime === new Date(t0).toISOString())).toBe(true);
  });

  it('a static NodePool stored before admission refused it is not Ready, saying why and what to do', () => {
    const nodePool = { ...pool(), spec: { ...pool().spec, replicas: 3 } } as NodePool;
    const desired = desiredNodePoolStatus({ nodePool, nodeClass: { found: true }, now: t0 });
    const ready = desired.conditions?.find((c) => c.type === 'Ready');
    expect(ready).toMatchObject({ status: 'False', reason: 'StaticNodePoolNotSupported' });
    expect(ready?.message).toMatch(/^spec\.replicas: Unsupported value: 3: static NodePools are not supported yet.*remove spec\.replicas/);
    expect(nodePoolNotReadyMessage(desired.conditions ? { status: desired } : nodePool)).toBe(ready?.message);
  });

  it('counts the managed nodes and their capacity, in Kubernetes quantities', () => {
    const desired = desiredNodePoolStatus({
      nodePool: pool(),
      nodeClass: { found: true },
      usage: { resources: { cpu: 16_000, memory: 64 * GiB, pods: 220 }, nodes: 2 },
      now: t0,
    });
    expect(desired.nodes).toBe(2);
    expect(desired.resources).toEqual({ cpu: '16', memory: '64Gi', pods: '220', nodes: '2' });
  });

  it('keeps lastTransitionTime while a condition keeps its status, and does not differ then', () => {
    const first = desiredNodePoolStatus({ nodePool: pool(), nodeClass: { found: true }, now: t0 });
    const later = desiredNodePoolStatus({ nodePool: pool(first), nodeClass: { found: true }, now: t0 + 60_000 });
    expect(later.conditions?.[1]?.lastTransitionTime).toBe(new Date(t0).toISOString());
    // Key order as an API server may return it must not count as a change.
    const reordered = JSON.parse(
      JSON.stringify({
        nodes: first.nodes,
        conditions: first.conditions?.map((c) => Object.fromEntries(Object.entries(c).reverse())),
        resources: first.resources,
      }),
    );
    expect(statusDiffers(reordered, later)).toBe(false);
    const broken = desiredNodePoolStatus({ nodePool: pool(first), nodeClass: { found: false }, now: t0 + 60_000 });
    expect(broken.conditions?.[1]?.lastTransitionTime).toBe(new Date(t0 + 60_000).toISOString());
    expect(statusDiffers(first, broken)).toBe(true);
  });
});

describe('nodePoolReady', () => {
  it('blocks only an explicit Ready=False; a NodePool without status yet is usable', () => {
    expect(nodePoolReady(pool())).toBe(true);
    const notReady = desiredNodePoolStatus({ nodePool: pool(), nodeClass: { found: false }, now: t0 });
    expect(nodePoolReady(pool(notReady))).toBe(false);
    expect(nodePoolNotReadyMessage(pool(notReady))).toContain('does not exist');
    expect(nodePoolNotReadyMessage(pool())).toBeUndefined();
  });
});

describe('provisioning and NodePool readiness', () => {
  it('skips a NodePool whose Ready condition is False, keeps one without status', () => {
    expect(schedulingNodePool(pool(), [], {})).toBeDefined();
    const notReady = desiredNodePoolStatus({ nodePool: pool(), nodeClass: { found: false }, now: t0 });
    expect(schedulingNodePool(pool(notReady), [], {})).toBeUndefined();
  });
});
