import { describe, it, expect } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import {
  podRequirementAlternatives,
  podRequirements,
  preferredNodeAffinityTerms,
  strictPodRequirements,
  usesMatchFields,
} from '../../../../src/domain/requirements/index.js';

const pod: V1Pod = {
  spec: {
    containers: [],
    nodeSelector: { 'kubernetes.io/arch': 'amd64' },
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['a', 'b'] }] },
            { matchExpressions: [{ key: 'karpenter-eu.io/instance-gpu-name', operator: 'Exists' }] },
          ],
        },
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 1, preference: { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['a'] }] } },
          { weight: 50, preference: { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['b'] }] } },
        ],
      },
    },
  },
};

describe('pod requirements', () => {
  it('strict: nodeSelector + the first required term', () => {
    const r = strictPodRequirements(pod);
    expect(r.get('kubernetes.io/arch').values()).toEqual(['amd64']);
    expect(r.get('topology.kubernetes.io/zone').values()).toEqual(['a', 'b']);
    expect(r.has('karpenter-eu.io/instance-gpu-name')).toBe(false);
  });

  it('with preferences: the heaviest preferred term is treated as required', () => {
    expect(podRequirements(pod).get('topology.kubernetes.io/zone').values()).toEqual(['b']);
    expect(preferredNodeAffinityTerms(pod).map((t) => t.weight)).toEqual([50, 1]);
    expect(pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.[0]?.weight).toBe(1);
  });

  it('required terms are ORed: one alternative per term, each with the nodeSelector', () => {
    const alternatives = podRequirementAlternatives(pod);
    expect(alternatives).toHaveLength(2);
    expect(alternatives[1]?.get('karpenter-eu.io/instance-gpu-name').operator()).toBe('Exists');
    expect(alternatives[1]?.get('kubernetes.io/arch').values()).toEqual(['amd64']);
    expect(alternatives[1]?.has('topology.kubernetes.io/zone')).toBe(false);
    expect(podRequirementAlternatives({ spec: { containers: [] } })).toHaveLength(1);
  });

  it('normalises beta keys from the nodeSelector and detects matchFields', () => {
    const legacy: V1Pod = { spec: { containers: [], nodeSelector: { 'beta.kubernetes.io/os': 'linux' } } };
    expect(strictPodRequirements(legacy).get('kubernetes.io/os').values()).toEqual(['linux']);
    expect(usesMatchFields(pod)).toBe(false);
    const withFields: V1Pod = {
      spec: {
        containers: [],
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n'] }] }],
            },
          },
        },
      },
    };
    expect(usesMatchFields(withFields)).toBe(true);
  });
});
