import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { displacedPods } from '../../../../src/domain/provisioning/index.js';

const pod = (name: string, extra: Partial<V1Pod> = {}): V1Pod => ({
  metadata: { name, namespace: 'default', ...extra.metadata },
  spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i' }], ...extra.spec },
  ...(extra.status ? { status: extra.status } : {}),
});

describe('displacedPods', () => {
  it.each([
    ['a pod of a node being deleted, unbound', [pod('web')], true, ['web']],
    ['nothing from a node not being deleted', [pod('web')], false, []],
    [
      'no DaemonSet pod',
      [pod('ds', { metadata: { name: 'ds', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds', uid: 'u' }] } })],
      true,
      [],
    ],
    ['no finished pod', [pod('job', { status: { phase: 'Succeeded' } })], true, []],
    ['no pod already terminating', [pod('bye', { metadata: { name: 'bye', deletionTimestamp: new Date(0) } })], true, []],
    [
      'no pod that tolerates the disrupted taint (it stays)',
      [pod('agent', { spec: { containers: [], tolerations: [{ key: 'karpenter.sh/disrupted', operator: 'Exists' }] } })],
      true,
      [],
    ],
    ['no mirror pod', [pod('static', { metadata: { name: 'static', annotations: { 'kubernetes.io/config.mirror': 'x' } } })], true, []],
  ] as const)('%s', (_label, pods, markedForDeletion, expected) => {
    const out = displacedPods([{ markedForDeletion, pods }]);
    expect(out.map((p) => p.metadata?.name)).toEqual(expected);
    for (const p of out) expect(p.spec?.nodeName).toBeUndefined();
  });
});
