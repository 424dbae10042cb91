import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  claimAnnotationKey,
  claimRecordsOf,
  familyOfPoolName,
  formatClaimRecord,
  isManagedPool,
  parseClaimRecord,
  poolBaseName,
  poolNameAt,
  poolStem,
  poolTemplate,
  poolVariant,
  type PoolSettings,
} from '../../../../src/cloudprovider/ovhcloud/pool-naming.js';

const base: PoolSettings = {
  flavor: 'b3-8',
  zone: 'eu-west-par-a',
  monthlyBilled: false,
  antiAffinity: false,
  labels: { 'karpenter.sh/nodepool': 'default' },
  taints: [],
  clusterName: 'prod',
};
const MksPoolName = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

describe('ovhcloud pool naming', () => {
  it.each([
    [{}, 'karpenter-b3-8-eu-west-par-a'],
    [{ flavor: 'l40s-90', zone: 'gra11-a' }, 'karpenter-l40s-90-gra11-a'],
    [{ monthlyBilled: true }, 'karpenter-b3-8-eu-west-par-a-monthly'],
    [{ antiAffinity: true, monthlyBilled: true }, 'karpenter-b3-8-eu-west-par-a-monthly-aa'],
    [{ flavor: 'win-b3-8.flex', zone: 'eu-west-par-c' }, 'karpenter-win-b3-8-flex-eu-west-par-c'],
  ])('names the pools of %j after flavor and zone (and the immutable settings)', (change, expected) => {
    expect(poolBaseName({ ...base, ...change })).toBe(expected);
  });

  it('fingerprints the template: another NodePool or taint is another variant; label order is not', () => {
    const variants = new Set([
      poolVariant(base),
      poolVariant({ ...base, labels: { 'karpenter.sh/nodepool': 'gpu' } }),
      poolVariant({ ...base, taints: [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }] }),
    ]);
    expect(variants.size).toBe(3);
    expect(poolVariant({ ...base, labels: { b: '1', a: '2' } })).toBe(poolVariant({ ...base, labels: { a: '2', b: '1' } }));
  });

  it.each([
    [undefined, 'karpenter-x'],
    ['abc123', 'karpenter-x'],
    ['ffffff', 'karpenter-x-abc123'],
  ])('the base pool held by variant %s leaves variant abc123 the stem %s', (held, stem) => {
    expect(poolStem('karpenter-x', 'abc123', held)).toBe(stem);
  });

  it('every pool name is a valid MKS pool name whose base (lock family) can be read back', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,40}$/),
        fc.stringMatching(/^[a-z]{2,20}-[a-z]$/),
        fc.boolean(),
        fc.boolean(),
        fc.nat(30),
        (flavor, zone, monthlyBilled, antiAffinity, index) => {
          const settings = { ...base, flavor, zone, monthlyBilled, antiAffinity };
          const baseName = poolBaseName(settings);
          for (const stem of [baseName, poolStem(baseName, poolVariant(settings), 'other')]) {
            const name = poolNameAt(stem, index);
            expect(name).toMatch(MksPoolName);
            expect(name.length).toBeLessThanOrEqual(63);
            expect(familyOfPoolName(name)).toBe(baseName);
          }
        },
      ),
    );
  });

  it('two clusters with the same pool settings get different variants, so they never share a pool name', () => {
    expect(poolVariant({ ...base, clusterName: 'staging' })).not.toBe(poolVariant(base));
    const stem = poolStem(poolBaseName(base), poolVariant({ ...base, clusterName: 'staging' }), poolVariant(base));
    expect(stem).toBe(`karpenter-b3-8-eu-west-par-a-${poolVariant({ ...base, clusterName: 'staging' })}`);
  });

  it('a pool is ours only when its template names our cluster', () => {
    const pool = { name: 'karpenter-b3-8-eu-west-par-a', template: poolTemplate(base, {}) };
    expect(isManagedPool(pool, 'prod')).toBe(true);
    expect(isManagedPool(pool, 'staging')).toBe(false);
  });

  it('templates carry all five fields MKS requires, the managed-by label and the claim records', () => {
    const template = poolTemplate(base, { [claimAnnotationKey('a')]: 'pending:5' });
    expect(template).toEqual({
      metadata: {
        labels: {
          'karpenter.sh/nodepool': 'default',
          'karpenter-eu.io/managed-by': 'karpenter-eu',
          'karpenter-eu.io/cluster': 'prod',
          'karpenter-eu.io/pool-variant': poolVariant(base),
        },
        annotations: { 'claims.karpenter-eu.io/a': 'pending:5' },
        finalizers: [],
      },
      spec: { taints: [], unschedulable: false },
    });
    expect([...claimRecordsOf(template)]).toEqual([['claims.karpenter-eu.io/a', { kind: 'pending', since: 5 }]]);
  });

  it.each([
    ['pending:1700000000000', { kind: 'pending', since: 1700000000000 }],
    ['node:abc-123', { kind: 'node', nodeId: 'abc-123' }],
    ['pending:soon', undefined],
    ['node:', undefined],
    ['other', undefined],
  ])('parses the claim record %s', (value, expected) => {
    expect(parseClaimRecord(value)).toEqual(expected);
    if (expected) expect(formatClaimRecord(expected as never)).toBe(value);
  });

  it('hashes NodeClaim names too long for an annotation name', () => {
    const key = claimAnnotationKey('x'.repeat(100));
    expect(key.split('/')[1]?.length).toBeLessThanOrEqual(63);
    expect(key).not.toBe(claimAnnotationKey('y'.repeat(100)));
  });
});
