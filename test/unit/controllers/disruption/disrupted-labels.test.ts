import { describe, expect, it } from 'vitest';
import type { NodeClaim, NodePool } from '../../../../src/apis/index.js';
import { disruptedLabels, snakeCase, terminationMode } from '../../../../src/controllers/disruption/disrupted-labels.js';

const claim = (grace?: string): NodeClaim =>
  ({
    metadata: { name: 'c', labels: { 'karpenter.sh/nodepool': 'default', 'karpenter.sh/capacity-type': 'on-demand' } },
    spec: grace === undefined ? {} : { terminationGracePeriod: grace },
  }) as unknown as NodeClaim;
const pool = {
  metadata: { name: 'default' },
  spec: { disruption: { consolidationPolicy: 'WhenEmptyOrUnderutilized' } },
} as unknown as NodePool;

describe("karpenter_nodeclaims_disrupted_total labels (upstream's)", () => {
  it('termination_mode: graceful without a grace period, forceful at zero, eventual otherwise', () => {
    expect(terminationMode(claim())).toBe('graceful');
    expect(terminationMode(claim('0s'))).toBe('forceful');
    expect(terminationMode(claim('1h'))).toBe('eventual');
  });

  it('consolidation_policy only when consolidation disrupted the NodeClaim, in snake_case', () => {
    expect(disruptedLabels('underutilized', claim(), pool, true)).toEqual({
      reason: 'underutilized',
      nodepool: 'default',
      capacity_type: 'on-demand',
      consolidation_policy: 'when_empty_or_underutilized',
      termination_mode: 'graceful',
    });
    expect(disruptedLabels('drifted', claim('1h'), pool, false).consolidation_policy).toBe('');
    expect(snakeCase('WhenEmpty')).toBe('when_empty');
  });
});
