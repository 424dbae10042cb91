import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mutate, validate, type KubeObject } from '../../../../src/domain/admission/index.js';
import {
  hasLegacyPodSelectors,
  LegacyInstanceTypeLabel,
  rewriteLegacyPodSelectors,
} from '../../../../src/domain/admission/rules/pod-selectors.js';
import { context } from './fixtures.js';

const key = fc.constantFrom(LegacyInstanceTypeLabel, 'node.kubernetes.io/instance-type', 'karpenter.sh/capacity-type');
const value = fc.oneof(fc.constantFrom('l4', 'gp1-xs', 'nvidia-l4'), fc.integer(), fc.constant(null));
const expression = fc.record(
  { key, operator: fc.constantFrom('In', 'NotIn', 'Exists'), values: fc.oneof(fc.array(value, { maxLength: 3 }), value) },
  { requiredKeys: ['key'] },
);
const nodeAffinity = fc.record({
  requiredDuringSchedulingIgnoredDuringExecution: fc.record({
    nodeSelectorTerms: fc.array(fc.record({ matchExpressions: fc.array(expression, { maxLength: 3 }) }), { maxLength: 2 }),
  }),
});
const pod = fc
  .record({ nodeSelector: fc.dictionary(key, value, { maxKeys: 2 }), affinity: fc.record({ nodeAffinity }) }, { requiredKeys: [] })
  .map((spec): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web' },
    spec: { containers: [{ name: 'web' }], ...spec },
  }));

describe('legacy karpenter.sh/instance-type pod selectors', () => {
  // Admission skips copying and diffing a pod when this says there is nothing to rewrite.
  it('hasLegacyPodSelectors is true exactly when the rewrite changes the pod', () => {
    fc.assert(
      fc.property(pod, (p) => {
        const copy = structuredClone(p);
        const warnings = rewriteLegacyPodSelectors(copy);
        expect(hasLegacyPodSelectors(p)).toBe(warnings.length > 0);
        if (warnings.length === 0) expect(copy).toEqual(p);
      }),
    );
  });

  it('validate refuses a pod, one violation per rewrite, exactly when it selects the legacy label; mutate never warns about it', () => {
    fc.assert(
      fc.property(pod, (p) => {
        const rewrites = rewriteLegacyPodSelectors(structuredClone(p));
        const result = validate(p, context());
        expect(result.allowed).toBe(rewrites.length === 0);
        expect(result.violations).toHaveLength(rewrites.length);
        expect(mutate(p, context()).warnings).toEqual([]);
      }),
    );
  });
});
