import { describe, expect, it } from 'vitest';
import { LabelInstanceType } from '../../../../src/apis/v1/labels.js';
import type { InstanceType } from '../../../../src/domain/instancetypes/types.js';
import type { Vm } from '../../../../src/cloudprovider/outscale/api-types.js';
import { launchTags, missingTags, toCloudNodeClaim } from '../../../../src/cloudprovider/outscale/instances.js';
import type { CloudProviderNodeClaim } from '../../../../src/cloudprovider/types.js';

function type(name: string, cpu: number, prices: Record<string, number>, available: Record<string, boolean> = {}): InstanceType {
  return {
    name,
    cloud: 'outscale',
    region: 'eu-west-2',
    labels: { [LabelInstanceType]: name },
    capacity: { cpu: cpu * 1000, memory: 2 ** 32 },
    allocatable: { cpu: cpu * 1000 - 100, memory: 2 ** 31 },
    offerings: Object.entries(prices).map(([zone, pricePerHour]) => ({
      zone,
      capacityType: 'on-demand',
      pricePerHour,
      available: available[zone] ?? true,
    })),
  };
}

const nodeClaim = (requirements: CloudProviderNodeClaim['spec']['requirements'], cpu = '1'): CloudProviderNodeClaim => ({
  metadata: { name: 'nc', uid: 'u1', labels: { 'karpenter.sh/nodepool': 'pool' } },
  spec: {
    nodeClassRef: { group: 'karpenter.outscale.sh', kind: 'OutscaleNodeClass', name: 'default' },
    requirements,
    resources: { requests: { cpu } },
  },
});

const vm: Vm = {
  VmId: 'i-00000001',
  VmType: 'tinav5.c8r64p1',
  State: 'running',
  Placement: { SubregionName: 'eu-west-2a' },
  PrivateDnsName: 'ip-10-0-1-4.eu-west-2.compute.internal',
  ImageId: 'ami-00000001',
  CreationDate: '2026-01-01T00:00:00.000Z',
  Performance: 'highest',
  BlockDeviceMappings: [],
  SecurityGroups: [],
  Tags: [
    { Key: 'karpenter-eu.io/instance-type', Value: 'tinav5.c8r64p1-v100' },
    { Key: 'karpenter.sh/nodeclaim', Value: 'nc' },
  ],
};

describe('VM tags and mapping', () => {
  it('writes the GC, CCM and traceability tags; NodeClass tags cannot override them', () => {
    const tags = launchTags(
      {
        clusterName: 'prod',
        clusterId: 'c1',
        nodeClaim: nodeClaim([]),
        instanceType: 'tinav5.c8r64p1-v100',
        nodeClassTags: { 'karpenter.sh/managed-by': 'evil', team: 'x' },
      },
      vm,
    );
    expect(Object.fromEntries(tags.map((t) => [t.Key, t.Value]))).toEqual({
      'karpenter.sh/managed-by': 'prod',
      'karpenter.sh/nodeclaim': 'nc',
      'karpenter.sh/nodepool': 'pool',
      'karpenter-eu.io/instance-type': 'tinav5.c8r64p1-v100',
      'OscK8sClusterID/c1': 'owned',
      OscK8sNodeName: 'ip-10-0-1-4.eu-west-2.compute.internal',
      team: 'x',
    });
    expect(missingTags(vm, tags).map((t) => t.Key)).not.toContain('karpenter.sh/nodeclaim');
  });

  it('maps a VM to a CloudNodeClaim: the tagged instance type, the aws:/// providerID, terminating while shutting down', () => {
    const index = new Map([['tinav5.c8r64p1-v100', type('tinav5.c8r64p1-v100', 8, {})]]);
    const claim = toCloudNodeClaim(vm, index);
    expect(claim).toMatchObject({
      providerID: 'aws:///eu-west-2a/i-00000001',
      instanceType: 'tinav5.c8r64p1-v100',
      zone: 'eu-west-2a',
      nodeClaimName: 'nc',
      createdAt: Date.UTC(2026, 0, 1),
    });
    expect(claim.capacity.cpu).toBe(8000);
    expect(claim.terminating).toBeUndefined();
    expect(toCloudNodeClaim({ ...vm, State: 'shutting-down', Tags: [] }, new Map()).terminating).toBe(true);
    expect(toCloudNodeClaim({ ...vm, Tags: [] }, new Map())).toMatchObject({
      instanceType: 'tinav5.c8r64p1',
      capacity: { cpu: 8000, memory: 64 * 2 ** 30 },
    });
  });
});
