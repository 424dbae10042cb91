import { describe, expect, it } from 'vitest';
import { formatFieldErrors } from '../../../src/apis/validation/index.js';
import { admissionErrors, nodePool, oracle, ours } from './upstream-oracle.js';

const upstream = oracle.nodePoolHead();
const mine = ours.nodePool();

interface Case {
  name: string;
  object: Record<string, unknown>;
  old?: Record<string, unknown>;
  /** undefined: admitted; otherwise a fragment of the expected error. */
  error?: string;
}

const req = (key: string, operator: string, values?: string[], minValues?: number) => ({
  key,
  operator,
  ...(values ? { values } : {}),
  ...(minValues ? { minValues } : {}),
});
const withRequirements = (...requirements: unknown[]) => nodePool({}, { requirements });
const withLabels = (labels: Record<string, string>) => nodePool({}, {}, { labels });
const ref = (group: string, kind: string, name: string) => nodePool({}, { nodeClassRef: { group, kind, name } });

const celCases: Case[] = [
  // spec rules (static NodePools, HEAD)
  {
    name: 'static → dynamic transition',
    object: nodePool(),
    old: nodePool({ replicas: 2 }),
    error: 'Cannot transition NodePool between static (replicas set) and dynamic (replicas unset) provisioning modes',
  },
  {
    name: 'dynamic → static transition',
    object: nodePool({ replicas: 2 }),
    old: nodePool(),
    error: 'Cannot transition NodePool between static',
  },
  { name: 'static stays static on update', object: nodePool({ replicas: 3 }), old: nodePool({ replicas: 2 }) },
  { name: 'static NodePool created (transition rule skipped on create)', object: nodePool({ replicas: 2 }) },
  { name: 'static NodePool with limits.nodes', object: nodePool({ replicas: 2, limits: { nodes: 5 } }) },
  { name: 'static NodePool with empty limits', object: nodePool({ replicas: 2, limits: {} }) },
  {
    name: 'static NodePool with a cpu limit',
    object: nodePool({ replicas: 2, limits: { cpu: 4 } }),
    error: "only 'limits.nodes' is supported on static NodePools",
  },
  {
    name: 'static NodePool with nodes and cpu limits',
    object: nodePool({ replicas: 2, limits: { nodes: 5, cpu: 4 } }),
    error: "only 'limits.nodes'",
  },
  {
    name: 'static NodePool with a weight',
    object: nodePool({ replicas: 2, weight: 10 }),
    error: "'weight' is not supported on static NodePools",
  },
  { name: 'dynamic NodePool with limits and weight', object: nodePool({ limits: { cpu: '100', memory: '200Gi' }, weight: 10 }) },
  // budgets
  {
    name: 'budget schedule without duration',
    object: nodePool({ disruption: { budgets: [{ nodes: '0', schedule: '0 8 * * 1-5' }] } }),
    error: "'schedule' must be set with 'duration'",
  },
  {
    name: 'budget duration without schedule',
    object: nodePool({ disruption: { budgets: [{ nodes: '0', duration: '10h' }] } }),
    error: "'schedule' must be set with 'duration'",
  },
  {
    name: 'budget schedule with duration',
    object: nodePool({ disruption: { budgets: [{ nodes: '20%' }, { nodes: '0', schedule: '0 8 * * 1-5', duration: '10h' }] } }),
  },
  // template labels
  {
    name: 'label in karpenter.sh domain',
    object: withLabels({ 'karpenter.sh/custom': 'x' }),
    error: 'label domain "karpenter.sh" is restricted',
  },
  {
    name: 'label in a karpenter.sh subdomain',
    object: withLabels({ 'team.karpenter.sh/custom': 'x' }),
    error: 'label domain "karpenter.sh" is restricted',
  },
  { name: 'label karpenter.sh/capacity-type', object: withLabels({ 'karpenter.sh/capacity-type': 'on-demand' }) },
  {
    name: 'label karpenter.sh/nodepool',
    object: withLabels({ 'karpenter.sh/nodepool': 'x' }),
    error: 'label "karpenter.sh/nodepool" is restricted',
  },
  {
    name: 'label kubernetes.io/hostname',
    object: withLabels({ 'kubernetes.io/hostname': 'x' }),
    error: 'label "kubernetes.io/hostname" is restricted',
  },
  {
    name: 'label in a domain that only ends like karpenter.sh',
    object: withLabels({ 'notkarpenter.sh/x': 'y' }),
    error: 'label domain "karpenter.sh" is restricted',
  },
  { name: 'ordinary labels', object: withLabels({ environment: 'production', 'example.com/team': 'ml', 'node.kubernetes.io/role': '' }) },
  // nodeClassRef
  {
    name: 'nodeClassRef group changed',
    object: ref('karpenter.scaleway.sh', 'OVHNodeClass', 'default'),
    old: nodePool(),
    error: 'nodeClassRef.group is immutable',
  },
  {
    name: 'nodeClassRef kind changed',
    object: ref('karpenter.ovhcloud.sh', 'Other', 'default'),
    old: nodePool(),
    error: 'nodeClassRef.kind is immutable',
  },
  { name: 'nodeClassRef name changed', object: ref('karpenter.ovhcloud.sh', 'OVHNodeClass', 'other'), old: nodePool() },
  { name: 'empty group', object: ref('', 'OVHNodeClass', 'default'), error: 'group may not be empty' },
  { name: 'empty kind', object: ref('karpenter.ovhcloud.sh', '', 'default'), error: 'kind may not be empty' },
  { name: 'empty name', object: ref('karpenter.ovhcloud.sh', 'OVHNodeClass', ''), error: 'name may not be empty' },
  // requirements list rules
  {
    name: 'In without values',
    object: withRequirements(req('kubernetes.io/arch', 'In', [])),
    error: "requirements with operator 'In' must have a value defined",
  },
  {
    name: 'In with values absent',
    object: withRequirements(req('kubernetes.io/arch', 'In')),
    error: "requirements with operator 'In' must have a value defined",
  },
  { name: 'NotIn without values', object: withRequirements(req('kubernetes.io/arch', 'NotIn', [])) },
  { name: 'Exists without values', object: withRequirements(req('example.com/gpu', 'Exists')) },
  { name: 'Gt with one integer', object: withRequirements(req('karpenter-eu.io/instance-cpu', 'Gt', ['4'])) },
  { name: 'Lte with one integer', object: withRequirements(req('karpenter-eu.io/instance-cpu', 'Lte', ['64'])) },
  { name: 'Gte with zero', object: withRequirements(req('karpenter-eu.io/instance-cpu', 'Gte', ['0'])) },
  {
    name: 'Gt with two values',
    object: withRequirements(req('karpenter-eu.io/instance-cpu', 'Gt', ['4', '8'])),
    error: "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value",
  },
  {
    name: 'Lt with a negative value',
    object: withRequirements(req('karpenter-eu.io/instance-cpu', 'Lt', ['-1'])),
    error: 'must have a single positive integer value',
  },
  {
    name: 'Gte with a non-integer',
    object: withRequirements(req('karpenter-eu.io/instance-cpu', 'Gte', ['four'])),
    error: 'must have a single positive integer value',
  },
  {
    name: 'Lt without values',
    object: withRequirements(req('karpenter-eu.io/instance-cpu', 'Lt')),
    error: 'must have a single positive integer value',
  },
  { name: 'minValues met', object: withRequirements(req('node.kubernetes.io/instance-type', 'In', ['b3-8', 'b3-16'], 2)) },
  {
    name: 'minValues not met',
    object: withRequirements(req('node.kubernetes.io/instance-type', 'In', ['b3-8'], 2)),
    error: "requirements with 'minValues' must have at least that many values specified in the 'values' field",
  },
  { name: 'minValues on NotIn', object: withRequirements(req('node.kubernetes.io/instance-type', 'NotIn', ['b3-8'], 2)) },
  // requirement keys
  {
    name: 'key in karpenter.sh domain',
    object: withRequirements(req('karpenter.sh/foo', 'Exists')),
    error: 'label domain "karpenter.sh" is restricted',
  },
  { name: 'key karpenter.sh/capacity-type', object: withRequirements(req('karpenter.sh/capacity-type', 'In', ['on-demand'])) },
  {
    name: 'key karpenter.sh/nodepool',
    object: withRequirements(req('karpenter.sh/nodepool', 'In', ['x'])),
    error: 'label "karpenter.sh/nodepool" is restricted',
  },
  {
    name: 'key kubernetes.io/hostname',
    object: withRequirements(req('kubernetes.io/hostname', 'In', ['x'])),
    error: 'label "kubernetes.io/hostname" is restricted',
  },
  { name: 'key in kubernetes.io domain (allowed at HEAD)', object: withRequirements(req('example.kubernetes.io/x', 'Exists')) },
];

const structuralCases: Case[] = [
  {
    name: 'no template',
    object: { apiVersion: 'karpenter.sh/v1', kind: 'NodePool', metadata: { name: 'x' }, spec: {} },
    error: 'spec.template: Required value',
  },
  { name: 'no spec', object: { apiVersion: 'karpenter.sh/v1', kind: 'NodePool', metadata: { name: 'x' } }, error: 'spec: Required value' },
  { name: 'no requirements', object: nodePool({}, { requirements: undefined }), error: 'spec.template.spec.requirements: Required value' },
  { name: 'unknown operator', object: withRequirements(req('a', 'Near', ['b'])), error: 'Unsupported value: "Near"' },
  { name: 'key too long', object: withRequirements(req(`${'a'.repeat(250)}.io/${'b'.repeat(63)}`, 'Exists')), error: 'Too long' },
  { name: 'key not a qualified name', object: withRequirements(req('bad key', 'Exists')), error: 'should match' },
  { name: 'minValues above 50', object: withRequirements(req('a', 'In', ['b'], 51)), error: 'less than or equal to 50' },
  {
    name: '101 requirements',
    object: withRequirements(...Array.from({ length: 101 }, (_, i) => req(`k${i}`, 'Exists'))),
    error: 'Too many: 101',
  },
  {
    name: 'requirement value with spaces (array-level pattern does not apply)',
    object: withRequirements(req('a', 'In', ['not a label value'])),
  },
  { name: 'weight 0', object: nodePool({ weight: 0 }), error: 'greater than or equal to 1' },
  { name: 'weight 101', object: nodePool({ weight: 101 }), error: 'less than or equal to 100' },
  { name: 'weight as string', object: nodePool({ weight: '5' }), error: 'must be of type integer' },
  { name: 'negative replicas', object: nodePool({ replicas: -1 }), error: 'greater than or equal to 0' },
  { name: 'Balanced policy', object: nodePool({ disruption: { consolidationPolicy: 'Balanced' } }) },
  { name: 'unknown policy', object: nodePool({ disruption: { consolidationPolicy: 'Always' } }), error: 'Unsupported value: "Always"' },
  { name: 'consolidateAfter Never', object: nodePool({ disruption: { consolidateAfter: 'Never' } }) },
  { name: 'consolidateAfter 1h30m', object: nodePool({ disruption: { consolidateAfter: '1h30m' } }) },
  { name: 'consolidateAfter in days', object: nodePool({ disruption: { consolidateAfter: '1d' } }), error: 'should match' },
  { name: 'expireAfter 168h', object: nodePool({}, { expireAfter: '168h' }) },
  { name: 'expireAfter with trailing junk', object: nodePool({}, { expireAfter: '5mjunk' }), error: 'should match' },
  { name: 'terminationGracePeriod Never', object: nodePool({}, { terminationGracePeriod: 'Never' }), error: 'should match' },
  { name: 'budget nodes 101%', object: nodePool({ disruption: { budgets: [{ nodes: '101%' }] } }), error: 'should match' },
  { name: 'budget nodes as integer', object: nodePool({ disruption: { budgets: [{ nodes: 3 }] } }), error: 'must be of type string' },
  {
    name: 'budget duration in seconds',
    object: nodePool({ disruption: { budgets: [{ nodes: '1', schedule: '@daily', duration: '30s' }] } }),
    error: 'should match',
  },
  {
    name: 'budget duration 1h30m0s',
    object: nodePool({ disruption: { budgets: [{ nodes: '1', schedule: '@daily', duration: '1h30m0s' }] } }),
  },
  {
    name: 'budget reason Expired',
    object: nodePool({ disruption: { budgets: [{ nodes: '1', reasons: ['Expired'] }] } }),
    error: 'Unsupported value: "Expired"',
  },
  {
    name: 'budget reasons duplicated',
    object: nodePool({ disruption: { budgets: [{ nodes: '1', reasons: ['Empty', 'Empty'] }] } }),
    error: 'Duplicate value',
  },
  { name: 'limits with quantities', object: nodePool({ limits: { cpu: '500m', memory: '1.5Gi', 'nvidia.com/gpu': 2, nodes: '1e3' } }) },
  { name: 'limit not a quantity', object: nodePool({ limits: { cpu: 'lots' } }), error: 'should match' },
  { name: 'limit as a float', object: nodePool({ limits: { cpu: 1.5 } }), error: 'must be of type integer or string' },
  { name: 'taint without effect', object: nodePool({}, { taints: [{ key: 'nvidia.com/gpu' }] }), error: 'effect: Required value' },
  { name: 'taint with a bad effect', object: nodePool({}, { taints: [{ key: 'a', effect: 'NoRun' }] }), error: 'Unsupported value' },
  {
    name: 'GPU taint and startup taint',
    object: nodePool(
      {},
      {
        taints: [{ key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' }],
        startupTaints: [{ key: 'example.com/init', effect: 'NoExecute' }],
      },
    ),
  },
  {
    name: 'taint timeAdded not a date',
    object: nodePool({}, { taints: [{ key: 'a', effect: 'NoExecute', timeAdded: 'yesterday' }] }),
    error: 'date-time',
  },
  {
    name: '101 labels',
    object: withLabels(Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`l${i}`, 'v']))),
    error: 'Too many: 101',
  },
  { name: 'label value too long', object: withLabels({ a: 'v'.repeat(64) }), error: 'Too long' },
  { name: 'group with a slash', object: ref('karpenter.ovhcloud.sh/v1alpha1', 'OVHNodeClass', 'default'), error: 'should match' },
  {
    name: 'status condition without reason',
    object: {
      ...nodePool(),
      status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z', message: '' }] },
    },
    error: 'reason: Required value',
  },
  {
    name: 'status with valid condition',
    object: {
      ...nodePool(),
      status: {
        nodes: 2,
        resources: { cpu: '8' },
        conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', lastTransitionTime: '2025-01-01T00:00:00Z', message: '' }],
      },
    },
  },
  { name: 'unknown field (pruned, not rejected)', object: nodePool({ surprise: true }) },
];

describe('NodePool: upstream HEAD CRD and ours agree', () => {
  it.each([...celCases, ...structuralCases].map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const upstreamErrors = admissionErrors(upstream, c.object, c.old);
    const ourErrors = admissionErrors(mine, c.object, c.old);
    expect(ourErrors.length === 0).toBe(upstreamErrors.length === 0);
    if (c.error === undefined) {
      expect(formatFieldErrors(ourErrors)).toBe('');
    } else {
      expect(formatFieldErrors(ourErrors)).toContain(c.error);
      expect(formatFieldErrors(upstreamErrors)).toContain(c.error);
    }
  });

  it('names the failing field like kube-apiserver', () => {
    const errors = admissionErrors(mine, withRequirements(req('a', 'Exists'), req('karpenter.sh/nodepool', 'In', ['x'])));
    expect(formatFieldErrors(errors)).toBe(
      'spec.template.spec.requirements[1].key: Invalid value: "string": label "karpenter.sh/nodepool" is restricted: \'karpenter.sh/nodepool\'',
    );
  });

  it('applies the upstream defaults', () => {
    const stored = mine.admit(nodePool()).object as { spec: Record<string, Record<string, unknown>> };
    expect(stored.spec.disruption).toEqual({
      consolidateAfter: '0s',
      consolidationPolicy: 'WhenEmptyOrUnderutilized',
      budgets: [{ nodes: '10%' }],
    });
    expect((stored.spec.template as { spec: Record<string, unknown> }).spec.expireAfter).toBe('720h');
    expect(stored).toEqual(upstream.admit(nodePool()).object);
  });
});
