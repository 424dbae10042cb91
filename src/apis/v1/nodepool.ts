/** karpenter.sh/v1 NodePool, schema-compatible with upstream Karpenter (pkg/apis/v1/nodepool.go + hack/validation). */
import { MaxBudgetNodesLength, MaxDurationLength, MaxScheduleLength } from '../schema/string-limits.js';
import { type Static, Type } from '@sinclair/typebox';
import { ObjectMeta, ResourceList, StringEnum, StringMap, rules } from '../schema/builders.js';
import { TaintListSchema, TemplateLabelsSchema, conditionsSchema, nodeClassReferenceSchema, requirementsSchema } from './common.js';
import { BudgetDurationPattern, BudgetNodesPattern, BudgetSchedulePattern, DurationPattern, NillableDurationPattern } from './patterns.js';

export const NodePoolGroup = 'karpenter.sh';
export const NodePoolVersion = 'v1';
export const NodePoolApiVersion = `${NodePoolGroup}/${NodePoolVersion}`;
export const NodePoolKind = 'NodePool';
export const NodePoolPlural = 'nodepools';

export const ConsolidationPolicies = ['WhenEmpty', 'WhenEmptyOrUnderutilized', 'Balanced'] as const;
export type ConsolidationPolicy = (typeof ConsolidationPolicies)[number];
export const DisruptionReasons = ['Underutilized', 'Empty', 'Drifted'] as const;
export type DisruptionReason = (typeof DisruptionReasons)[number];

export const BudgetSchema = Type.Object(
  {
    duration: Type.Optional(
      Type.String({
        description: 'How long the budget is active after each schedule hit (minutes and hours only).',
        maxLength: MaxDurationLength,
        pattern: BudgetDurationPattern,
      }),
    ),
    nodes: Type.String({
      default: '10%',
      description: 'The most NodeClaims of this NodePool that may be disrupted at once: a count or a percentage.',
      maxLength: MaxBudgetNodesLength,
      pattern: BudgetNodesPattern,
    }),
    reasons: Type.Optional(
      Type.Array(StringEnum(DisruptionReasons, { description: 'A disruption reason a budget applies to.' }), {
        description: 'The disruption methods this budget applies to; all when unset.',
        maxItems: 50,
        'x-kubernetes-list-type': 'set',
      }),
    ),
    schedule: Type.Optional(
      Type.String({
        description: 'Cron schedule (UTC) at which the budget becomes active.',
        maxLength: MaxScheduleLength,
        pattern: BudgetSchedulePattern,
      }),
    ),
  },
  { description: 'A limit on how many NodeClaims may be disrupted simultaneously.' },
);
export type Budget = Static<typeof BudgetSchema>;

export const DisruptionSchema = Type.Object(
  {
    budgets: Type.Optional(
      Type.Array(BudgetSchema, {
        default: [{ nodes: '10%' }],
        description: 'Budgets; the most restrictive active budget wins. Defaults to one budget of 10%.',
        maxItems: 50,
        'x-kubernetes-list-type': 'atomic',
        ...rules([
          'self.all(x, has(x.schedule) == has(x.duration))',
          "'schedule' must be set with 'duration'",
          `"'schedule' must be set with 'duration': " + self.filter(x, has(x.schedule) != has(x.duration)).map(x, has(x.schedule) ? "the budget with schedule '" + x.schedule + "' has no duration" : "the budget with duration '" + x.duration + "' has no schedule").join('; ')`,
        ]),
      }),
    ),
    consolidateAfter: Type.Optional(
      Type.String({
        default: '0s',
        description: 'How long to wait before consolidating an underutilized node.',
        maxLength: MaxDurationLength,
        pattern: NillableDurationPattern,
      }),
    ),
    consolidationPolicy: Type.Optional(
      StringEnum(ConsolidationPolicies, { default: 'WhenEmptyOrUnderutilized', description: 'Which nodes consolidation may disrupt.' }),
    ),
  },
  { default: { consolidateAfter: '0s' }, description: 'Parameters of the disruption logic.' },
);
export type Disruption = Static<typeof DisruptionSchema>;

export const NodeClaimTemplateSpecSchema = Type.Object(
  {
    expireAfter: Type.Optional(
      Type.String({
        default: '720h',
        description: 'How long a node lives before it is replaced; Never disables expiry.',
        maxLength: MaxDurationLength,
        pattern: NillableDurationPattern,
      }),
    ),
    nodeClassRef: nodeClassReferenceSchema('NodePool'),
    requirements: requirementsSchema('NodePool'),
    startupTaints: Type.Optional(TaintListSchema('Taints expected to be removed shortly after startup; ignored for provisioning.')),
    taints: Type.Optional(TaintListSchema("Taints applied to the NodeClaim's node.")),
    terminationGracePeriod: Type.Optional(
      Type.String({
        description: 'The longest the controller waits for pods to drain before forcing deletion.',
        maxLength: MaxDurationLength,
        pattern: DurationPattern,
      }),
    ),
  },
  { description: 'The desired state of the NodeClaims this NodePool launches.' },
);
export type NodeClaimTemplateSpec = Static<typeof NodeClaimTemplateSpecSchema>;

export const NodeClaimTemplateSchema = Type.Object(
  {
    metadata: Type.Optional(
      Type.Object({
        annotations: Type.Optional(
          StringMap(Type.String(), { description: 'Annotations applied to every node.', 'x-kubernetes-map-type': 'granular' }),
        ),
        labels: Type.Optional(TemplateLabelsSchema),
      }),
    ),
    spec: NodeClaimTemplateSpecSchema,
  },
  { description: 'The template of the NodeClaims this NodePool launches.' },
);

export const NodePoolSpecSchema = Type.Object(
  {
    disruption: Type.Optional(DisruptionSchema),
    limits: Type.Optional(
      ResourceList({ description: 'Bounds on the capacity this NodePool may provision; only limits.nodes on static NodePools.' }),
    ),
    replicas: Type.Optional(
      Type.Integer({
        description:
          "Upstream's static NodePool node count. Not supported yet: admission refuses it (the field stays for schema compatibility).",
        format: 'int64',
        minimum: 0,
      }),
    ),
    template: NodeClaimTemplateSchema,
    weight: Type.Optional(
      Type.Integer({
        description: 'Priority among NodePools; higher first. Not supported on static NodePools.',
        format: 'int32',
        maximum: 100,
        minimum: 1,
      }),
    ),
  },
  {
    description: 'A NodePool launches nodes for pods that cannot be scheduled, within its template and limits.',
    ...rules(
      [
        'has(self.replicas) == has(oldSelf.replicas)',
        'Cannot transition NodePool between static (replicas set) and dynamic (replicas unset) provisioning modes',
      ],
      [
        "!has(self.replicas) || (!has(self.limits) || size(self.limits) == 0 || (size(self.limits) == 1 && 'nodes' in self.limits))",
        "only 'limits.nodes' is supported on static NodePools",
        `"only 'limits.nodes' is supported on static NodePools: found limits " + self.limits.filter(k, k != 'nodes').join(', ')`,
      ],
      [
        '!has(self.replicas) || !has(self.weight)',
        "'weight' is not supported on static NodePools",
        `"'weight' is not supported on static NodePools: found weight " + string(self.weight)`,
      ],
    ),
  },
);
export type NodePoolSpec = Static<typeof NodePoolSpecSchema>;

export const NodePoolStatusSchema = Type.Object(
  {
    conditions: Type.Optional(conditionsSchema(true)),
    nodeClassObservedGeneration: Type.Optional(
      Type.Integer({ description: 'The generation of the NodeClass last observed.', format: 'int64' }),
    ),
    nodes: Type.Optional(Type.Integer({ default: 0, description: 'The number of nodes of this NodePool.', format: 'int64' })),
    resources: Type.Optional(ResourceList({ description: 'The resources provisioned by this NodePool.' })),
  },
  { description: 'The observed state of the NodePool.' },
);
export type NodePoolStatus = Static<typeof NodePoolStatusSchema>;

export const NodePoolSchema = Type.Object(
  {
    apiVersion: Type.Optional(Type.String()),
    kind: Type.Optional(Type.String()),
    metadata: Type.Optional(ObjectMeta()),
    spec: NodePoolSpecSchema,
    status: Type.Optional(NodePoolStatusSchema),
  },
  { description: 'NodePool is the Schema for the NodePools API.' },
);
export type NodePool = Static<typeof NodePoolSchema>;

/** NodePool condition types (pkg/apis/v1/nodepool_status.go). */
export const NodePoolConditionTypes = {
  Ready: 'Ready',
  ValidationSucceeded: 'ValidationSucceeded',
  NodeClassReady: 'NodeClassReady',
  NodeRegistrationHealthy: 'NodeRegistrationHealthy',
} as const;
