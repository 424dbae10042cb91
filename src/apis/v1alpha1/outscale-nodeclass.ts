/** karpenter.outscale.sh/v1alpha1 OutscaleNodeClass: where and how Outscale VMs are created and joined. */
import { type Static, Type } from '@sinclair/typebox';
import { ObjectMeta, StringEnum, rules } from '../schema/builders.js';
import { NodeClassStatusSchema, NodeClassVersion, SecretKeySelectorSchema, SecretReferenceSchema, tagsSchema } from './common.js';

export const OutscaleNodeClassGroup = 'karpenter.outscale.sh';
export const OutscaleNodeClassVersion = NodeClassVersion;
export const OutscaleNodeClassApiVersion = `${OutscaleNodeClassGroup}/${OutscaleNodeClassVersion}`;
export const OutscaleNodeClassKind = 'OutscaleNodeClass';
export const OutscaleNodeClassPlural = 'outscalenodeclasses';

/** eu-west-2, us-east-2, cloudgouv-eu-west-1… */
export const OutscaleRegionPattern = '^[a-z]+(-[a-z]+)*-[0-9]+$';
/** A region name plus one letter: eu-west-2a. */
export const OutscaleSubregionPattern = '^[a-z]+(-[a-z]+)*-[0-9]+[a-z]$';
export const OutscaleVolumeTypes = ['standard', 'gp2', 'io1'] as const;
export const UserDataFormats = ['CloudInit', 'TalosMachineConfig'] as const;

export const OutscaleSubnetSchema = Type.Object(
  {
    subnetId: Type.String({ description: 'The subnet for VMs in this subregion.', maxLength: 15, pattern: '^subnet-[0-9a-f]{8}$' }),
    subregion: Type.String({
      description: 'The subregion (availability zone) of the subnet.',
      maxLength: 32,
      pattern: OutscaleSubregionPattern,
    }),
  },
  { description: 'The subnet VMs use in one subregion.' },
);

export const OutscaleBsuSchema = Type.Object(
  {
    deleteOnVmDeletion: Type.Optional(Type.Boolean({ default: true, description: 'Delete the volume with the VM.' })),
    iops: Type.Optional(Type.Integer({ description: 'Provisioned IOPS (io1 only).', maximum: 13000, minimum: 100 })),
    volumeSize: Type.Integer({ description: 'Volume size in GiB.', maximum: 14901, minimum: 1 }),
    volumeType: Type.Optional(StringEnum(OutscaleVolumeTypes, { default: 'gp2', description: 'BSU volume type.' })),
  },
  {
    description: 'A BSU volume created with the VM.',
    ...rules([
      "(self.volumeType == 'io1') == has(self.iops)",
      "'iops' must be set for 'io1' volumes and only for them",
      `"'iops' must be set for 'io1' volumes and only for them: " + (has(self.iops) ? 'iops ' + string(self.iops) + " on a '" + (has(self.volumeType) ? self.volumeType : 'gp2') + "' volume" : "an 'io1' volume without iops")`,
    ]),
  },
);

export const OutscaleBlockDeviceMappingSchema = Type.Object(
  {
    bsu: OutscaleBsuSchema,
    deviceName: Type.String({
      description: 'Device name, /dev/sda1 for the root volume.',
      maxLength: 32,
      pattern: '^/dev/(sd|xvd)[a-z][0-9]*$',
    }),
  },
  { description: 'A volume attached to each VM.' },
);

export const OutscaleUserDataSchema = Type.Object(
  {
    content: Type.Optional(Type.String({ description: 'The user data itself.', maxLength: 512000 })),
    format: StringEnum(UserDataFormats, { description: 'cloud-init (CloudInit) or a Talos machine config (TalosMachineConfig).' }),
    secretRef: Type.Optional(
      Type.Object(SecretKeySelectorSchema.properties, {
        description: 'Secret key holding the user data (Talos machine configs carry secrets).',
      }),
    ),
  },
  {
    description: 'The boot configuration of each VM.',
    ...rules(['has(self.content) != has(self.secretRef)', "exactly one of 'content' or 'secretRef' must be set"]),
  },
);

/** A subregion is its region's name plus one letter (eu-west-2a). */
const subnetInRegion = 's.subregion.startsWith(self.region) && size(s.subregion) == size(self.region) + 1';

export const OutscaleNodeClassSpecSchema = Type.Object(
  {
    blockDeviceMappings: Type.Optional(
      Type.Array(OutscaleBlockDeviceMappingSchema, {
        description: "Volumes of each VM; the image's when unset.",
        maxItems: 10,
        'x-kubernetes-list-map-keys': ['deviceName'],
        'x-kubernetes-list-type': 'map',
      }),
    ),
    clusterId: Type.String({
      description: 'Cluster id written in the OscK8sClusterID/<clusterId> tag the Outscale cloud controller manager looks for.',
      maxLength: 63,
      pattern: '^[a-zA-Z0-9]([-a-zA-Z0-9_.]*[a-zA-Z0-9])?$',
    }),
    credentialsSecretRef: Type.Optional(
      Type.Object(SecretReferenceSchema.properties, {
        description:
          'Secret with the Outscale access key and secret key (OSC_ACCESS_KEY, OSC_SECRET_KEY); the operator-wide credentials when unset.',
      }),
    ),
    imageId: Type.String({ description: 'The OMI of the node OS.', maxLength: 12, pattern: '^ami-[0-9a-f]{8}$' }),
    keypairName: Type.Optional(Type.String({ description: 'Keypair for SSH access (debugging).', maxLength: 255, minLength: 1 })),
    region: Type.String({
      description: 'The Outscale region (eu-west-2, cloudgouv-eu-west-1…).',
      maxLength: 32,
      pattern: OutscaleRegionPattern,
    }),
    securityGroupIds: Type.Array(Type.String({ maxLength: 11, pattern: '^sg-[0-9a-f]{8}$' }), {
      description: 'Security groups of each VM.',
      maxItems: 5,
      minItems: 1,
      'x-kubernetes-list-type': 'set',
    }),
    subnets: Type.Array(OutscaleSubnetSchema, {
      description: 'One subnet per subregion VMs may be created in.',
      maxItems: 10,
      minItems: 1,
      'x-kubernetes-list-map-keys': ['subregion'],
      'x-kubernetes-list-type': 'map',
    }),
    tags: Type.Optional(tagsSchema({ maxTags: 40, maxKeyLength: 255, maxValueLength: 255 })),
    userData: Type.Optional(OutscaleUserDataSchema),
  },
  {
    description: 'Outscale settings for the nodes of the NodePools that reference this class.',
    ...rules([
      `self.subnets.all(s, ${subnetInRegion})`,
      "every subnet's subregion must be in 'region'",
      `"every subnet's subregion must be in 'region': " + self.subnets.filter(s, !(${subnetInRegion})).map(s, 'spec.subnets[' + string(self.subnets.map(t, t.subregion).indexOf(s.subregion)) + '] (' + s.subnetId + ') is in subregion \\'' + s.subregion + '\\', not in region \\'' + self.region + '\\'').join('; ')`,
    ]),
  },
);
export type OutscaleNodeClassSpec = Static<typeof OutscaleNodeClassSpecSchema>;

const idString = (description: string) => Type.String({ description, maxLength: 256 });

/** What the names of the spec resolved to, as the cloud answered (upstream's EC2NodeClass status.amis, subnets, securityGroups). */
export const OutscaleNodeClassStatusSchema = Type.Object(
  {
    ...NodeClassStatusSchema.properties,
    images: Type.Optional(
      Type.Array(Type.Object({ id: idString('The OMI id.'), name: Type.Optional(idString('Its name (ReadImages).')) }), {
        description: 'The image spec.imageId resolved to.',
        maxItems: 8,
      }),
    ),
    subnets: Type.Optional(
      Type.Array(Type.Object({ id: idString('The subnet id.'), zone: idString('The subregion the cloud has it in.') }), {
        description: 'The subnets of spec.subnets that exist, with their subregion.',
        maxItems: 32,
      }),
    ),
    securityGroups: Type.Optional(
      Type.Array(Type.Object({ id: idString('The security group id.'), name: idString('Its name.') }), {
        description: 'The security groups of spec.securityGroupIds that exist.',
        maxItems: 32,
      }),
    ),
  },
  { description: NodeClassStatusSchema.description ?? '' },
);

export const OutscaleNodeClassSchema = Type.Object(
  {
    apiVersion: Type.Optional(Type.String()),
    kind: Type.Optional(Type.String()),
    metadata: Type.Optional(ObjectMeta()),
    spec: OutscaleNodeClassSpecSchema,
    status: Type.Optional(OutscaleNodeClassStatusSchema),
  },
  { description: 'OutscaleNodeClass is the Outscale-specific configuration of nodes.' },
);
export type OutscaleNodeClass = Static<typeof OutscaleNodeClassSchema>;
