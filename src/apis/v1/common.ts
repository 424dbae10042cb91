/** Schema pieces shared by NodePool and NodeClaim (karpenter.sh/v1). */
import { MaxDnsSubdomainLength, MaxLabelValueLength, MaxQualifiedNameLength } from '../schema/string-limits.js';
import { type Static, Type } from '@sinclair/typebox';
import { StringEnum, StringMap, celString, everyKeyRule, rules } from '../schema/builders.js';
import {
  ConditionReasonOrEmptyPattern,
  ConditionReasonPattern,
  ConditionTypePattern,
  LabelValuePattern,
  QualifiedNamePattern,
} from './patterns.js';

export const TaintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;
export type TaintEffect = (typeof TaintEffects)[number];

export const TaintSchema = Type.Object(
  {
    effect: StringEnum(TaintEffects, { description: 'The effect of the taint on pods that do not tolerate it.' }),
    key: Type.String({
      description: 'The taint key to be applied to a node.',
      minLength: 1,
      maxLength: MaxQualifiedNameLength,
      pattern: QualifiedNamePattern,
    }),
    timeAdded: Type.Optional(Type.String({ description: 'When the taint was added.', format: 'date-time' })),
    value: Type.Optional(
      Type.String({
        description: 'The taint value corresponding to the taint key.',
        maxLength: MaxLabelValueLength,
        pattern: QualifiedNamePattern,
      }),
    ),
  },
  { description: 'A taint: the node repels pods that do not tolerate it.' },
);
export type Taint = Static<typeof TaintSchema>;

export const TaintListSchema = (description: string) => Type.Array(TaintSchema, { description, 'x-kubernetes-list-type': 'atomic' });

export const RequirementOperators = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt', 'Gte', 'Lte'] as const;
export type RequirementOperator = (typeof RequirementOperators)[number];

/** A rule on a string; its message ends with the string (CEL errors name only the type, "string"). */
const namingSelf = (rule: string, message: string): [string, string, string] => [
  rule,
  message,
  `${celString(`${message}: '`)} + self + "'"`,
];
const restrictKarpenterDomain = namingSelf(
  'self in ["karpenter.sh/capacity-type", "karpenter.sh/nodepool"] || !self.find("^([^/]+)").endsWith("karpenter.sh")',
  'label domain "karpenter.sh" is restricted',
);
const restrictNodePoolKey = namingSelf('self != "karpenter.sh/nodepool"', 'label "karpenter.sh/nodepool" is restricted');
const restrictHostnameKey = namingSelf('self != "kubernetes.io/hostname"', 'label "kubernetes.io/hostname" is restricted');

/** NodeSelectorRequirementWithMinValues; NodePools also forbid `karpenter.sh/nodepool` as a key, NodeClaims carry it. */
export function requirementSchema(owner: 'NodePool' | 'NodeClaim') {
  const keyRules =
    owner === 'NodePool'
      ? [restrictKarpenterDomain, restrictNodePoolKey, restrictHostnameKey]
      : [restrictKarpenterDomain, restrictHostnameKey];
  return Type.Object(
    {
      key: Type.String({
        description: 'The label key that the selector applies to.',
        maxLength: 316,
        pattern: QualifiedNamePattern,
        ...rules(...keyRules),
      }),
      minValues: Type.Optional(
        Type.Integer({
          description: 'ALPHA. The minimum number of unique values required to define the flexibility of the requirement.',
          maximum: 50,
          minimum: 1,
        }),
      ),
      operator: StringEnum(RequirementOperators, { description: "The key's relationship to the values." }),
      // Upstream puts maxLength/pattern on the array node (hack/validation/requirements.sh), where OpenAPI string
      // validators do not apply; kept as is so the schema accepts exactly what upstream accepts.
      values: Type.Optional(
        Type.Array(Type.String(), {
          description: 'Values for In/NotIn; one integer for Gt/Lt/Gte/Lte; none for Exists/DoesNotExist.',
          'x-kubernetes-list-type': 'atomic',
          maxLength: 63,
          pattern: LabelValuePattern,
        }),
      ),
    },
    { description: 'A node selector requirement with the minimum number of values it must keep.' },
  );
}
export type NodeSelectorRequirementWithMinValues = Static<ReturnType<typeof requirementSchema>>;

/**
 * A messageExpression naming each requirement `x` that fails `fault`: its index, key and `detail` (a CEL
 * string). The index is looked up by key (the first requirement with it), and no expression walks `values`
 * (unbounded): whole-object comparisons would make the API server's cost estimate refuse the CRD.
 */
function requirementsAtFault(message: string, fault: string, detail: string): string {
  return `${celString(`${message}: `)} + self.filter(x, ${fault}).map(x, 'requirements[' + string(self.map(r, r.key).indexOf(x.key)) + '] (key \\'' + x.key + '\\'' + ${detail} + ')').join('; ')`;
}

export function requirementsSchema(owner: 'NodePool' | 'NodeClaim') {
  return Type.Array(requirementSchema(owner), {
    description: 'Requirements are layered with the labels and applied to every node.',
    maxItems: 100,
    'x-kubernetes-list-type': 'atomic',
    ...rules(
      [
        "self.all(x, x.operator == 'In' ? x.values.size() != 0 : true)",
        "requirements with operator 'In' must have a value defined",
        requirementsAtFault(
          "requirements with operator 'In' must have a value defined",
          "x.operator == 'In' && (!has(x.values) || x.values.size() == 0)",
          "''",
        ),
      ],
      [
        "self.all(x, (x.operator == 'Gt' || x.operator == 'Lt' || x.operator == 'Gte' || x.operator == 'Lte') ? (x.values.size() == 1 && int(x.values[0]) >= 0) : true)",
        "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value",
        requirementsAtFault(
          "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value",
          "x.operator in ['Gt', 'Lt', 'Gte', 'Lte'] && !(has(x.values) && x.values.size() == 1 && x.values[0].matches('^[0-9]+$'))",
          `(has(x.values) && size(x.values) > 0 ? ', ' + string(size(x.values)) + ' value(s), the first \\'' + x.values[0] + '\\'' : ', no value')`,
        ),
      ],
      [
        "self.all(x, (x.operator == 'In' && has(x.minValues)) ? x.values.size() >= x.minValues : true)",
        "requirements with 'minValues' must have at least that many values specified in the 'values' field",
        requirementsAtFault(
          "requirements with 'minValues' must have at least that many values specified in the 'values' field",
          "x.operator == 'In' && has(x.minValues) && has(x.values) && x.values.size() < x.minValues",
          `', ' + string(x.values.size()) + ' value(s), minValues ' + string(x.minValues)`,
        ),
      ],
    ),
  });
}

const nonEmpty = (field: string) => rules(["self != ''", `${field} may not be empty`]);

/** NodeClassReference; on NodePools group and kind are also immutable. */
export function nodeClassReferenceSchema(owner: 'NodePool' | 'NodeClaim') {
  const immutability =
    owner === 'NodePool'
      ? rules(
          [
            'self.group == oldSelf.group',
            'nodeClassRef.group is immutable',
            `"nodeClassRef.group is immutable: was '" + oldSelf.group + "', now '" + self.group + "'"`,
          ],
          [
            'self.kind == oldSelf.kind',
            'nodeClassRef.kind is immutable',
            `"nodeClassRef.kind is immutable: was '" + oldSelf.kind + "', now '" + self.kind + "'"`,
          ],
        )
      : {};
  return Type.Object(
    {
      group: Type.String({
        description: 'API group of the referent.',
        maxLength: MaxDnsSubdomainLength,
        pattern: '^[^/]*$',
        ...nonEmpty('group'),
      }),
      kind: Type.String({ description: 'Kind of the referent.', ...nonEmpty('kind') }),
      name: Type.String({ description: 'Name of the referent.', ...nonEmpty('name') }),
    },
    { description: 'A reference to the object that holds the cloud-specific configuration.', ...immutability },
  );
}
export type NodeClassReference = Static<ReturnType<typeof nodeClassReferenceSchema>>;

export const ConditionStatuses = ['True', 'False', 'Unknown'] as const;

/** metav1.Condition; `strict` is NodePool's (reason and message required), otherwise NodeClaim's looser copy. */
export function conditionSchema(strict: boolean) {
  const reason = Type.String({
    description: 'A CamelCase programmatic identifier of the reason for the last transition.',
    maxLength: 1024,
    ...(strict ? { minLength: 1, pattern: ConditionReasonPattern } : { pattern: ConditionReasonOrEmptyPattern }),
  });
  const message = Type.String({ description: 'A human readable message about the transition.', maxLength: 32768 });
  return Type.Object({
    lastTransitionTime: Type.String({ description: 'When the condition last changed status.', format: 'date-time' }),
    message: strict ? message : Type.Optional(message),
    observedGeneration: Type.Optional(
      Type.Integer({ description: 'The .metadata.generation the condition was set from.', format: 'int64', minimum: 0 }),
    ),
    reason: strict ? reason : Type.Optional(reason),
    status: StringEnum(ConditionStatuses, { description: 'Status of the condition.' }),
    type: Type.String({
      description: 'Type of the condition, CamelCase or foo.example.com/CamelCase.',
      maxLength: 316,
      pattern: ConditionTypePattern,
    }),
  });
}
export type Condition = Static<ReturnType<typeof conditionSchema>>;

export function conditionsSchema(strict: boolean) {
  return Type.Array(conditionSchema(strict), {
    description: 'Conditions contains signals for health and readiness.',
    'x-kubernetes-list-map-keys': ['type'],
    'x-kubernetes-list-type': 'map',
  });
}

/** NodePool template labels: at most 100, valid values, and Karpenter's restricted keys. */
export const TemplateLabelsSchema = StringMap(Type.String({ maxLength: 63, pattern: LabelValuePattern }), {
  description: 'Labels applied to every node launched from this NodePool.',
  'x-kubernetes-map-type': 'atomic',
  maxProperties: 100,
  ...rules(
    everyKeyRule(
      'x in ["karpenter.sh/capacity-type", "karpenter.sh/nodepool"] || !x.find("^([^/]+)").endsWith("karpenter.sh")',
      'label domain "karpenter.sh" is restricted',
      'x',
    ),
    everyKeyRule('x != "karpenter.sh/nodepool"', 'label "karpenter.sh/nodepool" is restricted', 'x'),
    everyKeyRule('x != "kubernetes.io/hostname"', 'label "kubernetes.io/hostname" is restricted', 'x'),
  ),
});
