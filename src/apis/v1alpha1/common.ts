/** Schema pieces shared by the three NodeClasses (karpenter.{ovhcloud,scaleway,outscale}.sh/v1alpha1). */
import { type Static, Type } from '@sinclair/typebox';
import { StringMap, everyKeyRule, rules } from '../schema/builders.js';
import { conditionsSchema } from '../v1/common.js';

export const NodeClassVersion = 'v1alpha1';

/** RFC 1123 subdomain (Secret names) and label (namespaces). */
export const DnsSubdomainPattern = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
export const DnsLabelPattern = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
export const UuidPattern = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
/** A Secret data key. */
export const SecretKeyPattern = '^[-._a-zA-Z0-9]+$';

export const SecretReferenceSchema = Type.Object(
  {
    name: Type.String({ description: 'Name of the Secret.', maxLength: 253, pattern: DnsSubdomainPattern }),
    namespace: Type.String({ description: 'Namespace of the Secret.', maxLength: 63, pattern: DnsLabelPattern }),
  },
  { description: 'A reference to a Secret in a namespace.' },
);
export type SecretReference = Static<typeof SecretReferenceSchema>;

export const SecretKeySelectorSchema = Type.Object(
  {
    key: Type.String({ description: 'The key of the Secret data to read.', maxLength: 253, pattern: SecretKeyPattern }),
    name: Type.String({ description: 'Name of the Secret.', maxLength: 253, pattern: DnsSubdomainPattern }),
    namespace: Type.String({ description: 'Namespace of the Secret.', maxLength: 63, pattern: DnsLabelPattern }),
  },
  { description: 'One key of a Secret in a namespace.' },
);
export type SecretKeySelector = Static<typeof SecretKeySelectorSchema>;

/** Tag keys the controller writes itself; users may not set them. */
export const ReservedTagPrefixes = ['karpenter.sh/', 'karpenter-eu.io/'] as const;

/** Extra tags on every cloud resource the NodeClass creates. */
export function tagsSchema(options: { maxTags: number; maxKeyLength: number; maxValueLength: number }) {
  return StringMap(Type.String({ maxLength: options.maxValueLength }), {
    description: 'Extra tags for every resource created for this NodeClass.',
    maxProperties: options.maxTags,
    ...rules(
      everyKeyRule(`size(k) >= 1 && size(k) <= ${options.maxKeyLength}`, `tag keys must be 1 to ${options.maxKeyLength} characters long`),
      everyKeyRule(
        ReservedTagPrefixes.map((p) => `!k.startsWith("${p}")`).join(' && '),
        `tag keys starting with ${ReservedTagPrefixes.map((p) => `"${p}"`).join(' or ')} are reserved for the controller`,
      ),
    ),
  });
}

export const NodeClassStatusSchema = Type.Object(
  { conditions: Type.Optional(conditionsSchema(true)) },
  { description: 'The observed state of the NodeClass; Ready when the cloud resources it names were found.' },
);
export type NodeClassStatus = Static<typeof NodeClassStatusSchema>;

/** NodeClass condition types. */
export const NodeClassConditionTypes = { Ready: 'Ready', ValidationSucceeded: 'ValidationSucceeded' } as const;
