/** fast-check generators of NodePools and NodeClaims mixing valid and invalid values for every field. */
import fc from 'fast-check';

/** Valid values most of the time, an invalid one now and then: both verdicts stay frequent. */
function mostly<T>(valid: readonly T[], invalid: readonly T[]): fc.Arbitrary<T> {
  return fc.oneof({ arbitrary: fc.constantFrom(...valid), weight: 12 }, { arbitrary: fc.constantFrom(...invalid), weight: 1 });
}

const labelKeys = mostly(
  [
    'kubernetes.io/arch',
    'node.kubernetes.io/instance-type',
    'topology.kubernetes.io/zone',
    'karpenter.sh/capacity-type',
    'example.kubernetes.io/x',
    'kops.k8s.io/x',
    'karpenter-eu.io/instance-cpu',
    'example.com/team',
    'team',
  ],
  ['karpenter.sh/nodepool', 'karpenter.sh/other', 'sub.karpenter.sh/x', 'kubernetes.io/hostname', 'bad key', ''],
);
const values = fc.array(mostly(['amd64', 'b3-8', '4', '0', 'on-demand', '64'], ['-1', 'x y']), { maxLength: 3 });
const operators = mostly(['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt', 'Gte', 'Lte'], ['Near']);

const freeRequirementArb = fc.record(
  { key: labelKeys, operator: operators, values, minValues: fc.integer({ min: 0, max: 52 }) },
  { requiredKeys: ['key', 'operator'] },
);
/** Mostly well-shaped requirements (each operator with fitting values), sometimes anything. */
export const requirementArb = fc.oneof(
  {
    arbitrary: fc.record({
      key: labelKeys,
      operator: fc.constantFrom('In', 'NotIn'),
      values: fc.array(fc.constantFrom('amd64', 'b3-8', 'on-demand'), { minLength: 1, maxLength: 3 }),
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({
      key: labelKeys,
      operator: fc.constantFrom('Gt', 'Lt', 'Gte', 'Lte'),
      values: fc.tuple(fc.nat({ max: 64 }).map(String)),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ key: labelKeys, operator: fc.constantFrom('Exists', 'DoesNotExist') }), weight: 2 },
  {
    arbitrary: fc.record({
      key: labelKeys,
      operator: fc.constant('In'),
      values: fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 3 }),
      minValues: fc.integer({ min: 1, max: 3 }),
    }),
    weight: 1,
  },
  { arbitrary: freeRequirementArb, weight: 1 },
);

const durations = mostly(['0s', '30s', '5m', '1h30m', '720h', 'Never'], ['1d', '5mjunk', '', '10']);
const taintArb = fc.record(
  {
    key: mostly(['nvidia.com/gpu', 'example.com/init'], ['bad key', '']),
    value: mostly(['true', 'ml'], ['x y']),
    effect: mostly(['NoSchedule', 'PreferNoSchedule', 'NoExecute'], ['NoRun']),
  },
  { requiredKeys: ['key', 'effect'] },
);
const budgetArb = fc.record(
  {
    nodes: mostly(['10%', '0', '100%', '5'], ['101%', 'x']),
    schedule: mostly(['@daily', '0 8 * * 1-5'], ['daily']),
    duration: mostly(['10h', '30m', '1h30m0s'], ['30s']),
    reasons: fc.uniqueArray(mostly(['Underutilized', 'Empty', 'Drifted'], ['Expired']), { maxLength: 2 }),
  },
  { requiredKeys: ['nodes'] },
);
const quantity = fc.oneof(
  { arbitrary: mostly(['100', '500m', '1.5Gi', '1e3', '10Gi'], ['lots']), weight: 4 },
  { arbitrary: fc.integer({ min: 0, max: 1000 }), weight: 4 },
  { arbitrary: fc.constant(1.5), weight: 1 },
);

export const nodeClassRefArb = fc.record({
  group: mostly(['karpenter.ovhcloud.sh', 'karpenter.scaleway.sh'], ['', 'a/b']),
  kind: mostly(['OVHNodeClass', 'ScalewayNodeClass'], ['']),
  name: mostly(['default', 'gpu'], ['']),
});

export const templateSpecArb = fc.record(
  {
    nodeClassRef: nodeClassRefArb,
    requirements: fc.array(requirementArb, { maxLength: 3 }),
    taints: fc.array(taintArb, { maxLength: 2 }),
    startupTaints: fc.array(taintArb, { maxLength: 1 }),
    expireAfter: durations,
    terminationGracePeriod: durations,
  },
  { requiredKeys: ['nodeClassRef', 'requirements'] },
);

export const nodePoolArb = fc
  .record(
    {
      template: fc.record(
        {
          metadata: fc.record({ labels: fc.dictionary(labelKeys, mostly(['a', ''], ['x y']), { maxKeys: 3 }) }, { requiredKeys: [] }),
          spec: templateSpecArb,
        },
        { requiredKeys: ['spec'] },
      ),
      disruption: fc.record(
        {
          consolidationPolicy: mostly(['WhenEmpty', 'WhenEmptyOrUnderutilized', 'Balanced'], ['Always']),
          consolidateAfter: durations,
          budgets: fc.array(budgetArb, { maxLength: 3 }),
        },
        { requiredKeys: [] },
      ),
      limits: fc.dictionary(fc.constantFrom('cpu', 'memory', 'nodes', 'nvidia.com/gpu'), quantity, { maxKeys: 3 }),
      weight: fc.integer({ min: 0, max: 101 }),
    },
    { requiredKeys: ['template'] },
  )
  .chain((spec) =>
    // Static NodePools (replicas) are the rarer case: one in five.
    fc
      .oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: fc.integer({ min: -1, max: 5 }), weight: 1 })
      .map((replicas) => (replicas === undefined ? spec : { ...spec, replicas })),
  )
  .map((spec) => ({ apiVersion: 'karpenter.sh/v1', kind: 'NodePool', metadata: { name: 'generated' }, spec }));

export const nodeClaimArb = templateSpecArb.chain((spec) =>
  fc
    .record({ requests: fc.dictionary(fc.constantFrom('cpu', 'memory', 'pods'), quantity, { maxKeys: 2 }) }, { requiredKeys: [] })
    .map((resources) => ({
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: { name: 'generated' },
      spec: { ...spec, resources },
    })),
);

/** NodePools as users wrote them for Karpenter v1.0.x: well-formed fields, v1.0 operators and policies only. */
export const v109NodePoolArb = fc
  .record(
    {
      template: fc.record(
        {
          metadata: fc.record(
            {
              labels: fc.dictionary(
                fc.constantFrom('environment', 'example.com/team', 'node.kubernetes.io/role', 'topology.kubernetes.io/zone'),
                fc.constantFrom('a', 'prod', ''),
                { maxKeys: 3 },
              ),
            },
            { requiredKeys: [] },
          ),
          spec: fc.record(
            {
              nodeClassRef: fc.record({
                group: fc.constantFrom('karpenter.ovhcloud.sh', 'karpenter.k8s.aws'),
                kind: fc.constantFrom('OVHNodeClass', 'EC2NodeClass'),
                name: fc.constantFrom('default', 'gpu'),
              }),
              requirements: fc.array(
                fc.oneof(
                  fc.record({
                    key: fc.constantFrom(
                      'kubernetes.io/arch',
                      'node.kubernetes.io/instance-type',
                      'topology.kubernetes.io/zone',
                      'karpenter.sh/capacity-type',
                    ),
                    operator: fc.constantFrom('In', 'NotIn'),
                    values: fc.array(fc.constantFrom('amd64', 'b3-8', 'gra7-a', 'on-demand'), { minLength: 1, maxLength: 3 }),
                  }),
                  fc.record({
                    key: fc.constantFrom('karpenter.k8s.aws/instance-cpu', 'example.com/gen'),
                    operator: fc.constantFrom('Gt', 'Lt'),
                    values: fc.tuple(fc.nat({ max: 128 }).map(String)),
                  }),
                  fc.record({
                    key: fc.constantFrom('example.com/gpu', 'nvidia.com/gpu.present'),
                    operator: fc.constantFrom('Exists', 'DoesNotExist'),
                  }),
                ),
                { maxLength: 4 },
              ),
              taints: fc.array(
                fc.record({
                  key: fc.constantFrom('nvidia.com/gpu', 'dedicated'),
                  value: fc.constantFrom('true', 'ml'),
                  effect: fc.constantFrom('NoSchedule', 'NoExecute'),
                }),
                { maxLength: 2 },
              ),
              expireAfter: fc.constantFrom('720h', '168h', 'Never', '24h'),
              terminationGracePeriod: fc.constantFrom('48h', '30m'),
            },
            { requiredKeys: ['nodeClassRef', 'requirements'] },
          ),
        },
        { requiredKeys: ['spec'] },
      ),
      disruption: fc.record(
        {
          consolidationPolicy: fc.constantFrom('WhenEmpty', 'WhenEmptyOrUnderutilized'),
          consolidateAfter: fc.constantFrom('0s', '30s', '5m', 'Never', '1h'),
          budgets: fc.array(
            fc.oneof(
              fc.record({ nodes: fc.constantFrom('10%', '0', '5', '100%') }),
              fc.record({
                nodes: fc.constantFrom('0', '20%'),
                schedule: fc.constantFrom('@daily', '0 8 * * 1-5'),
                duration: fc.constantFrom('10h', '30m'),
              }),
            ),
            { maxLength: 3 },
          ),
        },
        { requiredKeys: ['consolidateAfter'] },
      ),
      limits: fc.dictionary(
        fc.constantFrom('cpu', 'memory', 'nvidia.com/gpu'),
        fc.oneof(fc.nat({ max: 1000 }), fc.constantFrom('100', '200Gi', '500m')),
        { maxKeys: 3 },
      ),
      weight: fc.integer({ min: 1, max: 100 }),
    },
    { requiredKeys: ['template'] },
  )
  .map((spec) => ({ apiVersion: 'karpenter.sh/v1', kind: 'NodePool', metadata: { name: 'v109' }, spec }));
