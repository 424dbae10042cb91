/**
 * karpenter.ovhcloud.sh/v1alpha1 OVHNodeClass: the fields users of the existing OVHcloud provider already write
 * (serviceName, kubeId, region, credentialsSecretRef, monthlyBilled, antiAffinity) plus tags.
 */
import { type Static, Type } from '@sinclair/typebox';
import { ObjectMeta } from '../schema/builders.js';
import { NodeClassStatusSchema, NodeClassVersion, SecretReferenceSchema, UuidPattern, tagsSchema } from './common.js';

export const OVHNodeClassGroup = 'karpenter.ovhcloud.sh';
export const OVHNodeClassVersion = NodeClassVersion;
export const OVHNodeClassApiVersion = `${OVHNodeClassGroup}/${OVHNodeClassVersion}`;
export const OVHNodeClassKind = 'OVHNodeClass';
export const OVHNodeClassPlural = 'ovhnodeclasses';

/** OVHcloud region names as the API spells them: GRA7, SBG5, RBX-A, EU-WEST-PAR, EU-SOUTH-MIL… */
export const OVHRegionPattern = '^[A-Z][A-Z0-9]*(-[A-Z0-9]+)*$';

export const OVHNodeClassSpecSchema = Type.Object(
  {
    antiAffinity: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'Spread the nodes of one node pool across hypervisors (MKS anti-affinity, at most 5 nodes per pool).',
      }),
    ),
    credentialsSecretRef: Type.Optional(
      Type.Object(SecretReferenceSchema.properties, {
        description:
          'Secret with the OVH API credentials (endpoint, applicationKey, applicationSecret, consumerKey); the operator-wide credentials when unset.',
      }),
    ),
    kubeId: Type.Optional(
      Type.String({
        description: 'The MKS cluster id (a UUID); detected from the cluster when unset.',
        maxLength: 36,
        pattern: UuidPattern,
      }),
    ),
    monthlyBilled: Type.Optional(
      Type.Boolean({ default: false, description: 'Bill nodes monthly instead of hourly; only gen2 flavors (b2, c2, d2, r2) offer it.' }),
    ),
    region: Type.Optional(
      Type.String({
        description: 'The OVHcloud region of the MKS cluster (GRA7, EU-WEST-PAR…); detected when unset.',
        maxLength: 32,
        pattern: OVHRegionPattern,
      }),
    ),
    serviceName: Type.String({
      description: 'The Public Cloud project id: 32 lowercase hexadecimal characters.',
      maxLength: 32,
      pattern: '^[0-9a-f]{32}$',
    }),
    tags: Type.Optional(tagsSchema({ maxTags: 50, maxKeyLength: 128, maxValueLength: 256 })),
  },
  { description: 'OVHcloud MKS settings for the nodes of the NodePools that reference this class.' },
);
export type OVHNodeClassSpec = Static<typeof OVHNodeClassSpecSchema>;

export const OVHNodeClassStatusSchema = Type.Object(
  {
    ...NodeClassStatusSchema.properties,
    kubeId: Type.Optional(
      Type.String({
        description:
          "The MKS cluster id in use: spec.kubeId, else the service's (Helm ovh.kubeId), else the one detected from this cluster's nodes.",
        maxLength: 64,
      }),
    ),
    region: Type.Optional(Type.String({ description: "The detected MKS cluster's region.", maxLength: 64 })),
  },
  { description: NodeClassStatusSchema.description ?? '' },
);

export const OVHNodeClassSchema = Type.Object(
  {
    apiVersion: Type.Optional(Type.String()),
    kind: Type.Optional(Type.String()),
    metadata: Type.Optional(ObjectMeta()),
    spec: OVHNodeClassSpecSchema,
    status: Type.Optional(OVHNodeClassStatusSchema),
  },
  { description: 'OVHNodeClass is the OVHcloud-specific configuration of nodes.' },
);
export type OVHNodeClass = Static<typeof OVHNodeClassSchema>;
