import { describe, expect, it } from 'vitest';
import type { OutscaleNodeClass } from '../../../../src/apis/v1alpha1/outscale-nodeclass.js';
import { NodeClassNotReadyError } from '../../../../src/cloudprovider/errors.js';
import type { Vm } from '../../../../src/cloudprovider/outscale/api-types.js';
import { DriftReasons, driftReasonOf, launchFields, resolveUserData, subnetFor } from '../../../../src/cloudprovider/outscale/nodeclass.js';
import type { NodeClassResolver } from '../../../../src/cloudprovider/types.js';

const nodeClass: OutscaleNodeClass = {
  metadata: { name: 'default' },
  spec: {
    region: 'eu-west-2',
    clusterId: 'c1',
    imageId: 'ami-00000001',
    securityGroupIds: ['sg-00000001', 'sg-00000002'],
    subnets: [
      { subregion: 'eu-west-2a', subnetId: 'subnet-0000000a' },
      { subregion: 'eu-west-2b', subnetId: 'subnet-0000000b' },
    ],
    tags: { team: 'platform' },
    blockDeviceMappings: [{ deviceName: '/dev/sda1', bsu: { volumeSize: 50 } }],
    userData: { format: 'CloudInit', content: '#cloud-config\n' },
  },
};
const userData = Buffer.from('#cloud-config\n').toString('base64');

const vm: Vm = {
  VmId: 'i-00000001',
  VmType: 'tinav5.c2r4p2',
  State: 'running',
  Placement: { SubregionName: 'eu-west-2a' },
  SubnetId: 'subnet-0000000a',
  ImageId: 'ami-00000001',
  CreationDate: '2026-01-01T00:00:00.000Z',
  Performance: 'high',
  BlockDeviceMappings: [],
  SecurityGroups: [
    { SecurityGroupId: 'sg-00000002', SecurityGroupName: 'b' },
    { SecurityGroupId: 'sg-00000001', SecurityGroupName: 'a' },
  ],
  Tags: [{ Key: 'team', Value: 'platform' }],
  UserData: userData,
};

const resolver = (data: Record<string, string>): NodeClassResolver<OutscaleNodeClass> => ({
  getNodeClass: async () => nodeClass,
  getSecretData: async () => data,
});

describe('OutscaleNodeClass → CreateVms', () => {
  it('fixes image, subnet of the subregion, security groups, block devices and base64 user data', () => {
    expect(launchFields(nodeClass, 'eu-west-2b', userData)).toEqual({
      ImageId: 'ami-00000001',
      SubnetId: 'subnet-0000000b',
      SecurityGroupIds: ['sg-00000001', 'sg-00000002'],
      Placement: { SubregionName: 'eu-west-2b' },
      UserData: userData,
      BlockDeviceMappings: [{ DeviceName: '/dev/sda1', Bsu: { VolumeSize: 50, VolumeType: 'gp2', DeleteOnVmDeletion: true } }],
    });
  });

  it('a subregion without a subnet is NodeClassNotReady, naming the subregions covered', () => {
    expect(() => subnetFor(nodeClass, 'eu-west-2c')).toThrow(NodeClassNotReadyError);
    expect(() => subnetFor(nodeClass, 'eu-west-2c')).toThrow(/covers: eu-west-2a, eu-west-2b/);
  });

  it('reads user data from the content or from a Secret key', async () => {
    expect(await resolveUserData(nodeClass, resolver({}))).toBe(userData);
    const fromSecret: OutscaleNodeClass = {
      ...nodeClass,
      spec: { ...nodeClass.spec, userData: { format: 'TalosMachineConfig', secretRef: { name: 's', namespace: 'ns', key: 'talos.yaml' } } },
    };
    expect(Buffer.from((await resolveUserData(fromSecret, resolver({ 'talos.yaml': 'machine: {}' }))) ?? '', 'base64').toString()).toBe(
      'machine: {}',
    );
    await expect(resolveUserData(fromSecret, resolver({ other: 'x' }))).rejects.toThrow(/has no key "talos.yaml"; accepted: other/);
  });
});

describe('drift', () => {
  it.each([
    ['nothing changed', vm, undefined],
    ['the image', { ...vm, ImageId: 'ami-00000009' }, DriftReasons.image],
    [
      'a security group',
      { ...vm, SecurityGroups: [{ SecurityGroupId: 'sg-00000001', SecurityGroupName: 'a' }] },
      DriftReasons.securityGroups,
    ],
    ['the subnet', { ...vm, SubnetId: 'subnet-0000000f' }, DriftReasons.subnet],
    ['a subregion no longer served', { ...vm, Placement: { SubregionName: 'eu-west-2c' } }, DriftReasons.subnet],
    ['the user data', { ...vm, UserData: Buffer.from('other').toString('base64') }, DriftReasons.userData],
    ['a NodeClass tag', { ...vm, Tags: [{ Key: 'team', Value: 'data' }] }, DriftReasons.tags],
  ])('%s', (_what, candidate, expected) => {
    expect(driftReasonOf(candidate, nodeClass, userData)).toBe(expected);
  });
});
