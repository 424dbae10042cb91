import { describe, expect, it } from 'vitest';
import { formatFieldErrors } from '../../../src/apis/validation/index.js';
import { admissionErrors, nodeClaim, oracle, ours } from './upstream-oracle.js';

const upstream = oracle.nodeClaimHead();
const mine = ours.nodeClaim();
const req = (key: string, operator: string, values?: string[]) => ({ key, operator, ...(values ? { values } : {}) });

const cases: Array<{ name: string; object: Record<string, unknown>; old?: Record<string, unknown>; error?: string }> = [
  { name: 'a plain NodeClaim', object: nodeClaim({ resources: { requests: { cpu: '1500m', memory: '4Gi', pods: 3 } } }) },
  {
    name: 'spec changed on update',
    object: nodeClaim({ expireAfter: '24h' }),
    old: nodeClaim(),
    error: 'spec: Invalid value: "object": spec is immutable',
  },
  { name: 'spec unchanged on update', object: nodeClaim(), old: nodeClaim() },
  {
    name: 'only status changed on update',
    object: { ...nodeClaim(), status: { nodeName: 'node-1', providerID: 'openstack:///abc' } },
    old: nodeClaim(),
  },
  {
    name: 'karpenter.sh/nodepool requirement (allowed on NodeClaims)',
    object: nodeClaim({ requirements: [req('karpenter.sh/nodepool', 'In', ['default'])] }),
  },
  {
    name: 'kubernetes.io/hostname requirement',
    object: nodeClaim({ requirements: [req('kubernetes.io/hostname', 'In', ['a'])] }),
    error: 'label "kubernetes.io/hostname" is restricted',
  },
  {
    name: 'karpenter.sh domain requirement',
    object: nodeClaim({ requirements: [req('karpenter.sh/x', 'Exists')] }),
    error: 'label domain "karpenter.sh" is restricted',
  },
  {
    name: 'In without values',
    object: nodeClaim({ requirements: [req('a', 'In', [])] }),
    error: "requirements with operator 'In' must have a value defined",
  },
  {
    name: 'Gt with a word',
    object: nodeClaim({ requirements: [req('a', 'Gt', ['x'])] }),
    error: 'must have a single positive integer value',
  },
  {
    name: 'minValues not met',
    object: nodeClaim({ requirements: [{ ...req('a', 'In', ['x']), minValues: 2 }] }),
    error: "requirements with 'minValues'",
  },
  {
    name: 'empty nodeClassRef name',
    object: nodeClaim({ nodeClassRef: { group: 'g', kind: 'K', name: '' } }),
    error: 'name may not be empty',
  },
  {
    name: 'nodeClassRef group may change only as part of the spec (immutable anyway)',
    object: nodeClaim({ nodeClassRef: { group: 'g', kind: 'K', name: 'n' } }),
    old: nodeClaim(),
    error: 'spec is immutable',
  },
  { name: 'request not a quantity', object: nodeClaim({ resources: { requests: { cpu: 'one' } } }), error: 'should match' },
  {
    name: 'condition with empty reason (NodeClaim allows it)',
    object: {
      ...nodeClaim(),
      status: { conditions: [{ type: 'Launched', status: 'Unknown', reason: '', lastTransitionTime: '2025-01-01T00:00:00Z' }] },
    },
  },
  {
    name: 'condition with a bad status',
    object: { ...nodeClaim(), status: { conditions: [{ type: 'Launched', status: 'Maybe', lastTransitionTime: '2025-01-01T00:00:00Z' }] } },
    error: 'Unsupported value: "Maybe"',
  },
  {
    name: 'duplicate condition types',
    object: {
      ...nodeClaim(),
      status: { conditions: [1, 2].map(() => ({ type: 'Launched', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z' })) },
    },
    error: 'Duplicate value',
  },
];

describe('NodeClaim: upstream HEAD CRD and ours agree', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const ourErrors = admissionErrors(mine, c.object, c.old);
    const upstreamErrors = admissionErrors(upstream, c.object, c.old);
    expect(ourErrors.length === 0).toBe(upstreamErrors.length === 0);
    if (c.error === undefined) expect(formatFieldErrors(ourErrors)).toBe('');
    else expect(formatFieldErrors(ourErrors)).toContain(c.error);
  });

  it('defaults expireAfter to 720h', () => {
    expect((mine.admit(nodeClaim()).object as { spec: { expireAfter: string } }).spec.expireAfter).toBe('720h');
  });
});
