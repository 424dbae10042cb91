import { describe, expect, it } from 'vitest';
import { admitObject, formatFieldErrors, validateObject } from '../../../src/apis/validation/index.js';

type Spec = Record<string, unknown>;
const object = (apiVersion: string, kind: string, spec: Spec) => ({ apiVersion, kind, metadata: { name: 'default' }, spec });
const ovh = (spec: Spec) =>
  object('karpenter.ovhcloud.sh/v1alpha1', 'OVHNodeClass', { serviceName: '0123456789abcdef0123456789abcdef', ...spec });
const scw = (spec: Spec) =>
  object('karpenter.scaleway.sh/v1alpha1', 'ScalewayNodeClass', {
    projectId: '11111111-2222-3333-4444-555555555555',
    zones: ['fr-par-1', 'fr-par-2'],
    image: 'ubuntu_jammy',
    join: { apiServerEndpoint: 'https://10.0.0.1:6443', tokenSecretRef: { name: 'join', namespace: 'karpenter', key: 'token' } },
    ...spec,
  });
const osc = (spec: Spec) =>
  object('karpenter.outscale.sh/v1alpha1', 'OutscaleNodeClass', {
    region: 'eu-west-2',
    clusterId: 'prod-1',
    imageId: 'ami-0123abcd',
    subnets: [
      { subregion: 'eu-west-2a', subnetId: 'subnet-0123abcd' },
      { subregion: 'eu-west-2b', subnetId: 'subnet-4567abcd' },
    ],
    securityGroupIds: ['sg-0123abcd'],
    ...spec,
  });

const cases: Array<[name: string, object: unknown, error?: string]> = [
  // OVHNodeClass
  [
    'ovh: the seed example',
    ovh({
      kubeId: '3c1a5b2e-8f7d-4c6b-9a0e-1d2f3a4b5c6d',
      region: 'GRA7',
      credentialsSecretRef: { name: 'ovh-credentials', namespace: 'karpenter' },
      monthlyBilled: false,
      antiAffinity: false,
    }),
  ],
  ['ovh: only serviceName (kubeId and region detected)', ovh({})],
  ['ovh: 3-AZ region', ovh({ region: 'EU-WEST-PAR' })],
  ['ovh: serviceName missing', object('karpenter.ovhcloud.sh/v1alpha1', 'OVHNodeClass', {}), 'spec.serviceName: Required value'],
  ['ovh: serviceName not 32 hex', ovh({ serviceName: 'your-project-id' }), 'spec.serviceName: Invalid value: "your-project-id"'],
  ['ovh: kubeId not a UUID', ovh({ kubeId: 'cluster-xyz' }), 'spec.kubeId: Invalid value: "cluster-xyz"'],
  ['ovh: lowercase region', ovh({ region: 'gra7' }), 'spec.region'],
  ['ovh: monthlyBilled as a string', ovh({ monthlyBilled: 'yes' }), 'must be of type boolean'],
  [
    'ovh: secret ref without namespace',
    ovh({ credentialsSecretRef: { name: 'ovh' } }),
    'spec.credentialsSecretRef.namespace: Required value',
  ],
  ['ovh: tags', ovh({ tags: { team: 'ml', 'cost-center': '42' } })],
  ['ovh: reserved tag key', ovh({ tags: { 'karpenter.sh/managed-by': 'me' } }), 'are reserved for the controller'],
  ['ovh: empty tag key', ovh({ tags: { '': 'x' } }), 'tag keys must be 1 to 128 characters long'],
  ['ovh: tag value too long', ovh({ tags: { a: 'x'.repeat(257) } }), 'spec.tags[a]: Too long'],
  // ScalewayNodeClass
  ['scw: join config', scw({})],
  [
    'scw: full',
    scw({
      rootVolume: { sizeGiB: 50, type: 'sbs_volume', iops: 15000 },
      securityGroupId: '11111111-2222-3333-4444-555555555556',
      placementGroupId: '11111111-2222-3333-4444-555555555557',
      privateNetworkId: '11111111-2222-3333-4444-555555555558',
      tags: { env: 'prod' },
      credentialsSecretRef: { name: 'scw', namespace: 'karpenter' },
    }),
  ],
  ['scw: userData instead of join', scw({ join: undefined, userData: '#cloud-config\nruncmd: []\n' })],
  ['scw: neither join nor userData', scw({ join: undefined }), "one of 'join' or 'userData' must be set"],
  ['scw: zones in two regions', scw({ zones: ['fr-par-1', 'nl-ams-1'] }), 'all zones must be in the same region'],
  ['scw: duplicate zone', scw({ zones: ['fr-par-1', 'fr-par-1'] }), 'spec.zones[1]: Duplicate value'],
  ['scw: no zone', scw({ zones: [] }), 'should have at least 1 items'],
  ['scw: bad zone', scw({ zones: ['paris-1'] }), 'spec.zones[0]'],
  ['scw: projectId not a UUID', scw({ projectId: 'abc' }), 'spec.projectId'],
  [
    'scw: iops on a local volume',
    scw({ rootVolume: { type: 'l_ssd', iops: 5000 } }),
    "'iops' applies only to root volumes of type 'sbs_volume'",
  ],
  ['scw: unsupported iops', scw({ rootVolume: { iops: 7000 } }), 'Unsupported value: 7000'],
  ['scw: tiny root volume', scw({ rootVolume: { sizeGiB: 5 } }), 'greater than or equal to 10'],
  [
    'scw: http endpoint',
    scw({ join: { apiServerEndpoint: 'http://10.0.0.1:6443', tokenSecretRef: { name: 'j', namespace: 'k', key: 't' } } }),
    'spec.join.apiServerEndpoint',
  ],
  [
    'scw: token ref without key',
    scw({ join: { apiServerEndpoint: 'https://k8s.example.com', tokenSecretRef: { name: 'j', namespace: 'k' } } }),
    'spec.join.tokenSecretRef.key: Required value',
  ],
  // OutscaleNodeClass
  ['osc: minimal', osc({})],
  [
    'osc: full',
    osc({
      keypairName: 'debug',
      tags: { Cluster: 'prod' },
      blockDeviceMappings: [{ deviceName: '/dev/sda1', bsu: { volumeSize: 50, volumeType: 'io1', iops: 3000 } }],
      userData: { format: 'TalosMachineConfig', secretRef: { name: 'talos', namespace: 'karpenter', key: 'worker.yaml' } },
      credentialsSecretRef: { name: 'osc', namespace: 'karpenter' },
    }),
  ],
  [
    'osc: subnet outside the region',
    osc({ subnets: [{ subregion: 'us-east-2a', subnetId: 'subnet-0123abcd' }] }),
    "every subnet's subregion must be in 'region'",
  ],
  [
    'osc: two subnets for one subregion',
    osc({
      subnets: [
        { subregion: 'eu-west-2a', subnetId: 'subnet-0123abcd' },
        { subregion: 'eu-west-2a', subnetId: 'subnet-4567abcd' },
      ],
    }),
    'spec.subnets[1]: Duplicate value',
  ],
  ['osc: no security group', osc({ securityGroupIds: [] }), 'spec.securityGroupIds'],
  ['osc: bad image id', osc({ imageId: 'ami-xyz' }), 'spec.imageId'],
  ['osc: clusterId with a slash', osc({ clusterId: 'a/b' }), 'spec.clusterId'],
  [
    'osc: io1 without iops',
    osc({ blockDeviceMappings: [{ deviceName: '/dev/sda1', bsu: { volumeSize: 50, volumeType: 'io1' } }] }),
    "'iops' must be set for 'io1' volumes and only for them",
  ],
  [
    'osc: iops on gp2 (the default type)',
    osc({ blockDeviceMappings: [{ deviceName: '/dev/sda1', bsu: { volumeSize: 50, iops: 3000 } }] }),
    "'iops' must be set for 'io1' volumes",
  ],
  [
    'osc: duplicate device',
    osc({ blockDeviceMappings: [1, 2].map(() => ({ deviceName: '/dev/sdb', bsu: { volumeSize: 10 } })) }),
    'Duplicate value',
  ],
  [
    'osc: user data content and secret',
    osc({ userData: { format: 'CloudInit', content: '#cloud-config', secretRef: { name: 'a', namespace: 'b', key: 'c' } } }),
    "exactly one of 'content' or 'secretRef' must be set",
  ],
  ['osc: user data format unknown', osc({ userData: { format: 'Ignition', content: '{}' } }), 'Unsupported value: "Ignition"'],
];

describe('NodeClass schemas', () => {
  it.each(cases.map(([name, obj, error]) => [name, obj, error] as const))('%s', (_name, obj, error) => {
    const { errors } = admitObject(obj);
    if (error === undefined) expect(formatFieldErrors(errors)).toBe('');
    else expect(formatFieldErrors(errors)).toContain(error);
  });

  it('applies the NodeClass defaults', () => {
    const stored = admitObject(scw({ rootVolume: {} })).object as unknown as { spec: { rootVolume: unknown } };
    expect(stored.spec.rootVolume).toEqual({ sizeGiB: 20, type: 'sbs_volume' });
    const ovhStored = admitObject(ovh({})).object as { spec: Record<string, unknown> };
    expect(ovhStored.spec).toMatchObject({ monthlyBilled: false, antiAffinity: false });
    const oscStored = admitObject(osc({ blockDeviceMappings: [{ deviceName: '/dev/sda1', bsu: { volumeSize: 20 } }] }))
      .object as unknown as { spec: { blockDeviceMappings: unknown } };
    expect(oscStored.spec.blockDeviceMappings).toEqual([
      { deviceName: '/dev/sda1', bsu: { volumeSize: 20, volumeType: 'gp2', deleteOnVmDeletion: true } },
    ]);
  });

  it('rejects kinds karpenter-eu does not serve, naming what is served', () => {
    const errors = validateObject({ apiVersion: 'karpenter.k8s.aws/v1', kind: 'EC2NodeClass', spec: {} });
    expect(formatFieldErrors(errors)).toContain(
      'kind: Unsupported value: "karpenter.k8s.aws/v1/EC2NodeClass": supported values: "karpenter.sh/v1/NodePool"',
    );
    expect(formatFieldErrors(validateObject({ kind: 'NodePool' }))).toBe('apiVersion: Required value');
  });
});
