import { describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { ignoredPodReason } from '../../../../src/domain/provisioning/index.js';

const requiring = (...terms: { key: string; operator: string }[][]): V1Pod => ({
  metadata: { name: 'p', namespace: 'default' },
  spec: {
    containers: [{ name: 'c' }],
    affinity: {
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms.map((t) => ({ matchExpressions: t })) } },
    },
  },
});

describe('pods provisioning ignores', () => {
  it('a pod requiring karpenter.sh/nodepool not to exist asks for a node Karpenter did not launch', () => {
    expect(ignoredPodReason(requiring([{ key: 'karpenter.sh/nodepool', operator: 'DoesNotExist' }]))).toBe(
      'karpenter-managed-label-does-not-exist',
    );
  });

  it.each([
    ['no affinity', { metadata: { name: 'p' }, spec: { containers: [{ name: 'c' }] } } as V1Pod],
    ['Exists instead', requiring([{ key: 'karpenter.sh/nodepool', operator: 'Exists' }])],
    ['another key', requiring([{ key: 'example.com/pool', operator: 'DoesNotExist' }])],
    // Only the first term is read, as upstream's pod requirements.
    ['in a later term', requiring([{ key: 'zone', operator: 'Exists' }], [{ key: 'karpenter.sh/nodepool', operator: 'DoesNotExist' }])],
  ])('%s: considered', (_name, pod) => {
    expect(ignoredPodReason(pod)).toBeUndefined();
  });

  it('a pod with resource claims unless DRA-aware provisioning is on (upstream does not provision for them)', () => {
    const claiming: V1Pod = {
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c' }], resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 't' }] },
    };
    expect(ignoredPodReason(claiming)).toBe('dynamic-resource-allocation-off');
    expect(ignoredPodReason(claiming, true)).toBeUndefined();
  });
});
