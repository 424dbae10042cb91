/** karpenter.scaleway.sh/v1alpha1 ScalewayNodeClass: where and how Scaleway Instances are created and joined. */
import { type Static, Type } from '@sinclair/typebox';
import { ObjectMeta, StringEnum, rules } from '../schema/builders.js';
import {
  NodeClassStatusSchema,
  NodeClassVersion,
  SecretKeySelectorSchema,
  SecretReferenceSchema,
  UuidPattern,
  tagsSchema,
} from './common.js';

export const ScalewayNodeClassGroup = 'karpenter.scaleway.sh';
export const ScalewayNodeClassVersion = NodeClassVersion;
export const ScalewayNodeClassApiVersion = `${ScalewayNodeClassGroup}/${ScalewayNodeClassVersion}`;
export const ScalewayNodeClassKind = 'ScalewayNodeClass';
export const ScalewayNodeClassPlural = 'scalewaynodeclasses';

/** fr-par-1, nl-ams-3, pl-waw-2… */
export const ScalewayZonePattern = '^[a-z]{2}-[a-z]{3}-[0-9]$';
/** An image UUID or a marketplace image label (ubuntu_jammy, debian_bookworm…). */
export const ScalewayImagePattern = `(${UuidPattern})|(^[a-z0-9][a-z0-9_.-]*$)`;
export const ScalewayRootVolumeTypes = ['l_ssd', 'sbs_volume'] as const;
export const ScalewaySbsIops = [5000, 15000] as const;

export const ScalewayRootVolumeSchema = Type.Object(
  {
    iops: Type.Optional(
      Type.Integer({ description: 'Block Storage performance class (sbs_volume only): 5000 or 15000 IOPS.', enum: [...ScalewaySbsIops] }),
    ),
    sizeGiB: Type.Optional(Type.Integer({ default: 20, description: 'Root volume size in GiB.', maximum: 10240, minimum: 10 })),
    type: Type.Optional(
      StringEnum(ScalewayRootVolumeTypes, { default: 'sbs_volume', description: 'Local SSD (l_ssd) or Block Storage (sbs_volume).' }),
    ),
  },
  {
    description: 'The root volume of each instance.',
    ...rules([
      "!has(self.iops) || self.type == 'sbs_volume'",
      "'iops' applies only to root volumes of type 'sbs_volume'",
      `"'iops' applies only to root volumes of type 'sbs_volume': iops " + string(self.iops) + " on type '" + (has(self.type) ? self.type : 'sbs_volume') + "'"`,
    ]),
  },
);

export const ScalewayJoinSchema = Type.Object(
  {
    apiServerEndpoint: Type.String({
      description: 'HTTPS URL of the Kubernetes API server the node joins.',
      maxLength: 2048,
      pattern: '^https://[^\\s/:]+(:[0-9]{1,5})?(/[^\\s]*)?$',
    }),
    caBundle: Type.Optional(
      Type.String({
        description: "Base64 PEM bundle of the cluster CA; the cluster-info ConfigMap's when unset.",
        maxLength: 65536,
        pattern: '^[A-Za-z0-9+/]*={0,2}$',
      }),
    ),
    caCertHashes: Type.Optional(
      Type.Array(Type.String({ maxLength: 71, pattern: '^sha256:[0-9a-f]{64}$' }), {
        description:
          "kubeadm's CA cert hashes (sha256:<hex of the CA's public key>, as `kubeadm token create --print-join-command` prints): the node verifies the cluster CA against them; used when caBundle is unset.",
        maxItems: 8,
        minItems: 1,
      }),
    ),
    kubernetesVersion: Type.Optional(
      Type.String({
        description: 'Kubelet version to install (v1.31, 1.31.4…); the control plane version when unset.',
        maxLength: 32,
        pattern: '^v?[0-9]+\\.[0-9]+(\\.[0-9]+)?$',
      }),
    ),
    tokenSecretRef: Type.Object(SecretKeySelectorSchema.properties, {
      description: 'Secret key holding the bootstrap token (abcdef.0123456789abcdef).',
    }),
  },
  { description: 'How the generated cloud-init joins the node to the cluster.' },
);

export const ScalewayNodeClassSpecSchema = Type.Object(
  {
    credentialsSecretRef: Type.Optional(
      Type.Object(SecretReferenceSchema.properties, {
        description: 'Secret with the Scaleway API keys (SCW_ACCESS_KEY, SCW_SECRET_KEY); the operator-wide credentials when unset.',
      }),
    ),
    image: Type.String({ description: 'Image UUID or marketplace label of the node OS.', maxLength: 128, pattern: ScalewayImagePattern }),
    join: Type.Optional(ScalewayJoinSchema),
    placementGroupId: Type.Optional(
      Type.String({ description: 'Placement group (UUID) of every instance.', maxLength: 36, pattern: UuidPattern }),
    ),
    privateNetworkId: Type.Optional(
      Type.String({ description: 'Private Network (UUID) every instance is attached to.', maxLength: 36, pattern: UuidPattern }),
    ),
    projectId: Type.String({ description: 'The Scaleway project (UUID) the instances belong to.', maxLength: 36, pattern: UuidPattern }),
    rootVolume: Type.Optional(ScalewayRootVolumeSchema),
    securityGroupId: Type.Optional(
      Type.String({
        description: 'Security group (UUID) of every instance; the project default when unset.',
        maxLength: 36,
        pattern: UuidPattern,
      }),
    ),
    tags: Type.Optional(tagsSchema({ maxTags: 50, maxKeyLength: 128, maxValueLength: 256 })),
    userData: Type.Optional(
      Type.String({
        description: 'Cloud-init user data: extra parts merged with the join config, or the whole boot config when join is unset.',
        maxLength: 1048576,
      }),
    ),
    zones: Type.Array(Type.String({ maxLength: 16, pattern: ScalewayZonePattern }), {
      description: 'Zones the instances may be created in, all in one region.',
      maxItems: 3,
      minItems: 1,
      'x-kubernetes-list-type': 'set',
      ...rules([
        'self.all(z, z.find("^[a-z]+-[a-z]+") == self[0].find("^[a-z]+-[a-z]+"))',
        'all zones must be in the same region',
        `'all zones must be in the same region: ' + self.filter(z, z.find("^[a-z]+-[a-z]+") != self[0].find("^[a-z]+-[a-z]+")).map(z, 'spec.zones[' + string(self.indexOf(z)) + '] \\'' + z + '\\' is not in the region of spec.zones[0] \\'' + self[0] + '\\'').join('; ')`,
      ]),
    }),
  },
  {
    description: 'Scaleway Instances settings for the nodes of the NodePools that reference this class.',
    ...rules(['has(self.join) || has(self.userData)', "one of 'join' or 'userData' must be set for nodes to join the cluster"]),
  },
);
export type ScalewayNodeClassSpec = Static<typeof ScalewayNodeClassSpecSchema>;

/** What spec.image resolved to in each zone (upstream's EC2NodeClass status.amis). */
export const ScalewayNodeClassStatusSchema = Type.Object(
  {
    ...NodeClassStatusSchema.properties,
    images: Type.Optional(
      Type.Array(
        Type.Object({
          id: Type.String({ description: 'The image id the zone boots.', maxLength: 64 }),
          name: Type.Optional(Type.String({ description: 'Its label or name.', maxLength: 256 })),
          zone: Type.String({ description: 'The zone.', maxLength: 16 }),
        }),
        { description: 'The image spec.image resolved to, per zone.', maxItems: 3 },
      ),
    ),
  },
  { description: NodeClassStatusSchema.description ?? '' },
);

export const ScalewayNodeClassSchema = Type.Object(
  {
    apiVersion: Type.Optional(Type.String()),
    kind: Type.Optional(Type.String()),
    metadata: Type.Optional(ObjectMeta()),
    spec: ScalewayNodeClassSpecSchema,
    status: Type.Optional(ScalewayNodeClassStatusSchema),
  },
  { description: 'ScalewayNodeClass is the Scaleway-specific configuration of nodes.' },
);
export type ScalewayNodeClass = Static<typeof ScalewayNodeClassSchema>;
