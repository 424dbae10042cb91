/** karpenter.sh/v1 NodeClaim, schema-compatible with upstream Karpenter (pkg/apis/v1/nodeclaim.go + hack/validation). */
import { MaxDurationLength } from '../schema/string-limits.js';
import { type Static, Type } from '@sinclair/typebox';
import { ObjectMeta, ResourceList, rules } from '../schema/builders.js';
import { TaintListSchema, conditionsSchema, nodeClassReferenceSchema, requirementsSchema } from './common.js';
import { DurationPattern, NillableDurationPattern } from './patterns.js';

export const NodeClaimGroup = 'karpenter.sh';
export const NodeClaimVersion = 'v1';
export const NodeClaimApiVersion = `${NodeClaimGroup}/${NodeClaimVersion}`;
export const NodeClaimKind = 'NodeClaim';
export const NodeClaimPlural = 'nodeclaims';

export const NodeClaimSpecSchema = Type.Object(
  {
    expireAfter: Type.Optional(
      Type.String({
        default: '720h',
        description: 'How long the node lives before it is replaced; Never disables expiry.',
        maxLength: MaxDurationLength,
        pattern: NillableDurationPattern,
      }),
    ),
    nodeClassRef: nodeClassReferenceSchema('NodeClaim'),
    requirements: requirementsSchema('NodeClaim'),
    resources: Type.Optional(
      Type.Object(
        { requests: Type.Optional(ResourceList({ description: 'The resources the node must at least provide.' })) },
        { description: 'The resources requested by the pods this NodeClaim was launched for.' },
      ),
    ),
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
  { description: 'The desired state of a NodeClaim; immutable once created.', ...rules(['self == oldSelf', 'spec is immutable']) },
);
export type NodeClaimSpec = Static<typeof NodeClaimSpecSchema>;

export const NodeClaimStatusSchema = Type.Object(
  {
    allocatable: Type.Optional(ResourceList({ description: 'The resources of the node available to pods.' })),
    capacity: Type.Optional(ResourceList({ description: 'The total resources of the node.' })),
    conditions: Type.Optional(conditionsSchema(false)),
    imageID: Type.Optional(Type.String({ description: 'The image the node runs.' })),
    lastPodEventTime: Type.Optional(
      Type.String({ description: 'When a pod was last scheduled on or removed from the node.', format: 'date-time' }),
    ),
    nodeName: Type.Optional(Type.String({ description: 'The name of the node that registered for this NodeClaim.' })),
    providerID: Type.Optional(Type.String({ description: "The cloud instance's identifier." })),
  },
  { description: 'The observed state of the NodeClaim.' },
);
export type NodeClaimStatus = Static<typeof NodeClaimStatusSchema>;

export const NodeClaimSchema = Type.Object(
  {
    apiVersion: Type.Optional(Type.String()),
    kind: Type.Optional(Type.String()),
    metadata: Type.Optional(ObjectMeta()),
    spec: NodeClaimSpecSchema,
    status: Type.Optional(NodeClaimStatusSchema),
  },
  { description: 'NodeClaim is the Schema for the NodeClaims API.' },
);
export type NodeClaim = Static<typeof NodeClaimSchema>;

/** NodeClaim condition types (pkg/apis/v1/nodeclaim_status.go). */
export const NodeClaimConditionTypes = {
  Ready: 'Ready',
  Launched: 'Launched',
  Registered: 'Registered',
  Initialized: 'Initialized',
  Consolidatable: 'Consolidatable',
  Drifted: 'Drifted',
  Drained: 'Drained',
  VolumesDetached: 'VolumesDetached',
  InstanceTerminating: 'InstanceTerminating',
  ConsistentStateFound: 'ConsistentStateFound',
  DisruptionReason: 'DisruptionReason',
} as const;
