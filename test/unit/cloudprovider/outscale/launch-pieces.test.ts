import { describe, expect, it } from 'vitest';
import { LabelInstanceType, LabelTopologyZone } from '../../../../src/apis/v1/labels.js';
import type { InstanceType } from '../../../../src/domain/instancetypes/types.js';
import type { Vm } from '../../../../src/cloudprovider/outscale/api-types.js';
import { launchTags, missingTags, toCloudNodeClaim } from '../../../../src/cloudprovider/outscale/instances.js';
import { chooseOffering } from '../../../../src/cloudprovider/outscale/offering-choice.js';
import type { CloudProviderNodeClaim } from '../../../../src/cloudprovider/types.js';

function type(name: string, cpu: number, prices: Record<string, number>, available: Record<string, boolean> = {}): InstanceType {
  return {
    name, cloud: 'outscale', region: 'eu-west-2', labels: { [LabelInstanceType]: name },
    capacity: { cpu: cpu * 1000, memory: 2 ** 32 }, allocatable: { cpu: cpu * 1000 - 100, memory: 2 ** 31 },
    offerings: Object.entries(prices).map(([zone, pricePerHour]) => ({ zone, capacityType: 'on-demand', pricePerHour, available: available[zone] ?? true })),
  };
}

const nodeClaim = (requirements: CloudProviderNodeClaim['spec']['requirements'], cpu = '1'): CloudProviderNodeClaim => ({
  metadata: { name: 'nc', uid: 'u1', labels: { 'karpenter.sh/nodepool': 'pool' } },
  spec: { nodeClassRef: { group: 'karpenter.outscale.sh', kind: 'OutscaleNodeClass', name: 'default' }, requirements, resources: { requests: { cpu } } },
});

const types = [type('small', 2, { a: 0.1, b: 0.09 }, { b: false }), type('big', 8, { a: 0.4, b: 0.4 })];

describe('chooseOffering', () => {
  it.each([
    ['the cheapest available offering', [], '1', { name: 'small', zone: 'a' }],
    ['the requested zone', [{ key: LabelTopologyZone, operator: 'In' as const, values: ['b'] }], '1', { name: 'big', zone: 'b' }],
    ['a type whose allocatable fits the requests', [], '4', { name: 'big', zone: 'a' }],
    ['the requested type', [{ key: LabelInstanceType, operator: 'In' as const, values: ['big'] }], '1', { name: 'big', zone: 'a' }],
  ])('picks %s', (_what, requirements, cpu, expected) => {
    const { best } = chooseOffering(types, nodeClaim(requirements, cpu));
    expect({ name: best?.instanceType.name, zone: best?.offering.zone }).toEqual(expected);
  });

  it('a GPU requirement excludes types without GPU labels; NodePool and custom labels constrain no type', () => {
    const gpu = { key: 'karpenter-eu.io/instance-gpu-name', operator: 'In' as const, values: ['v100'] };
    expect(chooseOffering(types, nodeClaim([gpu]))).toEqual({ compatible: 0 });
    const noGpu = { key: 'karpenter-eu.io/instance-gpu-name', operator: 'DoesNotExist' as const };
    const custom = [{ key: 'karpenter.sh/nodepool', operator: 'In' as const, values: ['pool'] }, { key: 'team', operator: 'In' as const, values: ['a'] }];
    expect(chooseOffering(types, nodeClaim([noGpu, ...custom])).best?.instanceType.name).toBe('small');
  });

  it('counts compatible offerings even when none is available, and none when nothing fits', () => {
    const pinned = [{ key: LabelInstanceType, operator: 'In' as const, values: ['small'] }, { key: LabelTopologyZone, operator: 'In' as const, values: ['b'] }];
    expect(chooseOffering(types, nodeClaim(pinned))).toEqual({ compatible: 1 });
    expect(chooseOffering(types, nodeClaim([], '64'))).toEqual({ compatible: 0 });
  });
});

const vm: Vm = {
  VmId: 'i-00000001', VmType: 'tinav5.c8r64p1', State: 'running', Placement: { SubregionName: 'eu-west-2a' }, PrivateDnsName: 'ip-10-0-1-4.eu-west-2.compute.internal',
  ImageId: 'ami-00000001', CreationDate: '2026-01-01T00:00:00.000Z', Performance: 'highest', BlockDeviceMappings: [], SecurityGroups: [],
  Tags: [{ Key: 'karpenter-eu.io/instance-type', Value: 'tinav5.c8r64p1-v100' }, { Key: 'karpenter.sh/nodeclaim', Value: 'nc' }],
};

describe('VM tags and mapping', () => {
  it('writes the GC, CCM and traceability tags; NodeClass tags cannot override them', () => {
    const tags = launchTags({ clusterName: 'prod', clusterId: 'c1', nodeClaim: nodeClaim([]), instanceType: 'tinav5.c8r64p1-v100', nodeClassTags: { 'karpenter.sh/managed-by': 'evil', team: 'x' } }, vm);
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
    expect(claim).toMatchObject({ providerID: 'aws:///eu-west-2a/i-00000001', instanceType: 'tinav5.c8r64p1-v100', zone: 'eu-west-2a', nodeClaimName: 'nc', createdAt: Date.UTC(2026, 0, 1) });
    expect(claim.capacity.cpu).toBe(8000);
    expect(claim.terminating).toBeUndefined();
    expect(toCloudNodeClaim({ ...vm, State: 'shutting-down', Tags: [] }, new Map()).terminating).toBe(true);
    expect(toCloudNodeClaim({ ...vm, Tags: [] }, new Map())).toMatchObject({ instanceType: 'tinav5.c8r64p1', capacity: { cpu: 8000, memory: 64 * 2 ** 30 } });
  });
});
