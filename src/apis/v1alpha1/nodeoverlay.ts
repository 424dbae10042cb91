/**
 * karpenter.sh/v1alpha1 NodeOverlay, schema-compatible with upstream Karpenter (pkg/apis/v1alpha1/nodeoverlay.go,
 * alpha): what the scheduling simulation should believe about matching instance types instead of what the
 * cloud reports — a price (absolute, or adjusted by an amount or a percentage) and extra extended resources.
 */
import { type Static, Type } from '@sinclair/typebox';
import { MaxQuantityLength } from '../schema/string-limits.js';
import { ObjectMeta, ResourceList, StringEnum, rules } from '../schema/builders.js';
import { conditionsSchema, RequirementOperators } from '../v1/common.js';
import { LabelValuePattern, QualifiedNamePattern } from '../v1/patterns.js';

export const NodeOverlayGroup = 'karpenter.sh';
export const NodeOverlayVersion = 'v1alpha1';
export const NodeOverlayApiVersion = `${NodeOverlayGroup}/${NodeOverlayVersion}`;
export const NodeOverlayKind = 'NodeOverlay';
export const NodeOverlayPlural = 'nodeoverlays';

/** `+0.05`, `-0.5` (an amount), `+25%` (any increase) or `-10%` (a decrease of at most 100 %). Upstream's pattern. */
export const PriceAdjustmentPattern = '^(([+-]{1}(\\d*\\.?\\d+))|(\\+{1}\\d*\\.?\\d+%)|(^(-\\d{1,2}(\\.\\d+)?%)$)|(-100%))$';
/** An absolute price: a non-negative decimal. */
export const PricePattern = '^\\d+(\\.\\d+)?$';
/** Resources an overlay may not set: the simulation derives them from the flavor itself. */
export const RestrictedOverlayResources = ['cpu', 'memory', 'ephemeral-storage', 'pods'] as const;

const requirementSchema = Type.Object(
  {
    key: Type.String({
      description: 'The label key that the selector applies to.',
      maxLength: 316,
      pattern: QualifiedNamePattern,
      ...rules(
        [
          'self in ["karpenter.sh/capacity-type", "karpenter.sh/nodepool"] || !self.find("^([^/]+)").endsWith("karpenter.sh")',
          'label domain "karpenter.sh" is restricted',
        ],
        ['self != "kubernetes.io/hostname"', 'label "kubernetes.io/hostname" is restricted'],
      ),
    }),
    operator: StringEnum(RequirementOperators, { description: "The key's relationship to the values." }),
    values: Type.Optional(
      Type.Array(Type.String(), {
        description: 'Values for In/NotIn; one integer for Gt/Lt/Gte/Lte; none for Exists/DoesNotExist.',
        'x-kubernetes-list-type': 'atomic',
        maxLength: 63,
        pattern: LabelValuePattern,
      }),
    ),
  },
  { description: 'A node selector requirement over the labels of an instance type, its offering and its NodePool.' },
);

export const NodeOverlaySpecSchema = Type.Object(
  {
    capacity: Type.Optional(
      ResourceList({
        description:
          'Extended resources added to matching instance types (replacing the flavor’s own value of the same resource); cpu, memory, ephemeral-storage and pods are refused.',
        ...rules([
          `self.all(x, !(x in [${RestrictedOverlayResources.map((r) => `'${r}'`).join(', ')}]))`,
          'invalid resource restricted',
          `'invalid resource restricted: ' + self.filter(x, x in [${RestrictedOverlayResources.map((r) => `'${r}'`).join(', ')}]).join(', ') + ' cannot be set by an overlay; only extended resources (e.g. nvidia.com/gpu)'`,
        ]),
      }),
    ),
    price: Type.Optional(
      Type.String({
        description: 'The price of matching offerings, replacing the catalog price (EUR per hour).',
        maxLength: MaxQuantityLength,
        pattern: PricePattern,
      }),
    ),
    priceAdjustment: Type.Optional(
      Type.String({
        description: "A change to the catalog price of matching offerings: '+0.05' / '-0.5' (EUR per hour) or '+25%' / '-10%'.",
        maxLength: MaxQuantityLength,
        pattern: PriceAdjustmentPattern,
      }),
    ),
    requirements: Type.Array(requirementSchema, {
      description: 'Which instance types (and offerings, NodePools) the overlay applies to; all when empty.',
      maxItems: 100,
      ...rules(
        [
          "self.all(x, x.operator == 'NotIn' ? has(x.values) && x.values.size() != 0 : true)",
          "requirements with operator 'NotIn' must have a value defined",
        ],
        [
          "self.all(x, x.operator == 'In' ? has(x.values) && x.values.size() != 0 : true)",
          "requirements with operator 'In' must have a value defined",
        ],
        [
          "self.all(x, (x.operator == 'Gt' || x.operator == 'Lt' || x.operator == 'Gte' || x.operator == 'Lte') ? (has(x.values) && x.values.size() == 1 && x.values[0].matches('^[0-9]+$')) : true)",
          "requirements operator 'Gt', 'Lt', 'Gte' or 'Lte' must have a single positive integer value",
        ],
      ),
    }),
    weight: Type.Optional(
      Type.Integer({
        description: 'Precedence among overlays matching the same offering: higher wins; unset counts as 0. Equal weights conflict.',
        format: 'int32',
        maximum: 10000,
        minimum: 1,
      }),
    ),
  },
  {
    description: 'Which instance types the overlay matches and what the simulation believes about them.',
    ...rules(['!has(self.price) || !has(self.priceAdjustment)', "cannot set both 'price' and 'priceAdjustment'"]),
  },
);
export type NodeOverlaySpec = Static<typeof NodeOverlaySpecSchema>;

export const NodeOverlaySchema = Type.Object(
  {
    apiVersion: Type.Optional(Type.String()),
    kind: Type.Optional(Type.String()),
    metadata: Type.Optional(ObjectMeta()),
    spec: NodeOverlaySpecSchema,
    status: Type.Optional(
      Type.Object(
        { conditions: Type.Optional(conditionsSchema(true)) },
        { description: 'The observed state: ValidationSucceeded and Ready say whether the overlay is applied.' },
      ),
    ),
  },
  { description: 'NodeOverlay adjusts the price and extended resources the scheduling simulation sees for instance types.' },
);
export type NodeOverlay = Static<typeof NodeOverlaySchema>;

/** NodeOverlay condition types (pkg/apis/v1alpha1/nodeoverlay_status.go). */
export const NodeOverlayConditionTypes = { Ready: 'Ready', ValidationSucceeded: 'ValidationSucceeded' } as const;
