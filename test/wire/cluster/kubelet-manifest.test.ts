import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nodeLabelsFromUserData, taintsFromUserData } from '../../../src/testbed/cluster/kubelet/user-data.js';
import { allocatableOf, nodeFor } from '../../../src/testbed/cluster/kubelet/node-manifest.js';
import { PodIpAllocator } from '../../../src/testbed/cluster/kubelet/pod-status.js';
import { scalewayRegionOf } from '../../../src/testbed/cluster/kubelet/sources/scaleway-source.js';
import { ovhInstance } from './cluster-fixtures.js';

describe('kubelet flags in user data', () => {
  it.each([
    ['kubelet --node-labels=a=b,c=d', { a: 'b', c: 'd' }],
    ['KUBELET_EXTRA_ARGS="--node-labels=karpenter.sh/nodepool=default"', { 'karpenter.sh/nodepool': 'default' }],
    ['kubelet --node-labels team=x', { team: 'x' }],
    ['no flags here', {}],
  ])('reads labels from %j', (userData, labels) => {
    expect(nodeLabelsFromUserData(userData)).toEqual(labels);
  });

  it.each([
    [
      '--register-with-taints=k=v:NoSchedule,k2:NoExecute',
      [
        { key: 'k', value: 'v', effect: 'NoSchedule' },
        { key: 'k2', effect: 'NoExecute' },
      ],
    ],
    ['--register-with-taints=bad:Sometimes,ok=1:PreferNoSchedule', [{ key: 'ok', value: '1', effect: 'PreferNoSchedule' }]],
    [undefined, []],
  ])('reads taints from %j', (userData, taints) => {
    expect(taintsFromUserData(userData)).toEqual(taints);
  });
});

describe('node manifest', () => {
  it('subtracts the reserve from capacity and never goes below zero', () => {
    expect(allocatableOf({ cpu: '4', memory: '8Gi', pods: '110' }, { memory: '100Mi', cpu: '100m' })).toEqual({
      cpu: '3900m',
      memory: '8092Mi',
      pods: '110',
    });
    expect(allocatableOf({ memory: '50Mi' }, { memory: '100Mi' })).toEqual({ memory: '0' });
  });

  it('registers with the not-ready taint first and the launch taints kept', () => {
    const node = nodeFor(
      ovhInstance('x', { taints: [{ key: 'karpenter.sh/unregistered', effect: 'NoExecute' }] }),
      {},
      Date.UTC(2026, 0, 1),
    );
    expect(node.spec?.taints).toEqual([
      { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
      { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
    ]);
    expect(node.spec?.providerID).toBe('openstack:///x');
    expect(node.status?.conditions?.[0]).toMatchObject({ type: 'Ready', status: 'False' });
  });

  it('maps Scaleway zones to regions', () => {
    expect(scalewayRegionOf('fr-par-2')).toBe('fr-par');
    expect(scalewayRegionOf('pl-waw-1')).toBe('pl-waw');
  });

  it('hands out distinct pod IPs per node (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('n1', 'n2', 'n3'), { maxLength: 200 }), (nodes) => {
        const ips = new PodIpAllocator();
        const seen = nodes.map((n) => ips.allocate(n));
        expect(new Set(seen).size).toBe(seen.length);
      }),
    );
  });
});

describe('Outscale instance source', () => {
  it("lists running VMs by private DNS name with the aws:/// providerID and the VM's own size for parametric types", async () => {
    const { outscaleInstanceSource } = await import('../../../src/testbed/cluster/kubelet/sources/outscale-source.js');
    const vm = (id: string, state: string) => ({
      id,
      name: id,
      instanceType: 'tinav6.c3r5p2',
      zone: 'eu-west-2a',
      state,
      tags: {},
      userData: 'kubelet --node-labels=karpenter.sh/nodepool=web',
      createdAt: 1,
      providerID: `aws:///eu-west-2a/${id}`,
      privateIp: '10.0.1.5',
      privateDnsName: `ip-10-0-1-5.eu-west-2.compute.internal`,
      imageId: 'ami-1',
      securityGroupIds: [],
      performance: 'high',
      vcores: 3,
      ramGiB: 5,
      flexibleGpuIds: [],
      visible: true,
    });
    const emulator = { region: 'eu-west-2', state: () => ({ instances: [vm('i-1', 'running'), vm('i-2', 'pending')], flexibleGpus: [] }) };
    const source = outscaleInstanceSource(emulator as never, {
      cloud: 'outscale',
      retrieved: '2025-01-01',
      sources: [],
      regions: [],
      flavors: [],
    });
    const instances = source.running();
    expect(instances).toHaveLength(1);
    expect(instances[0]).toMatchObject({
      nodeName: 'ip-10-0-1-5.eu-west-2.compute.internal',
      providerID: 'aws:///eu-west-2a/i-1',
      region: 'eu-west-2',
      zone: 'eu-west-2a',
      capacity: { cpu: '3', pods: '110' },
      labels: { 'karpenter.sh/nodepool': 'web' },
      internalIP: '10.0.1.5',
    });
    // The VM's own size through the same allocatable model the planner uses.
    const { nodeAllocatable } = await import('../../../src/domain/instancetypes/allocatable.js');
    const { parseResourceList } = await import('../../../src/domain/quantity/index.js');
    const model = nodeAllocatable({ vcpus: 3, memoryMiB: 5 * 1024 }, 'outscale');
    expect(parseResourceList(instances[0]?.capacity)).toEqual(model.capacity);
    expect(parseResourceList(instances[0]?.allocatable)).toEqual(model.allocatable);
  });

  it("reports the flexible GPUs attached to a VM as nvidia.com/gpu capacity, as the device plugin would (allocated or another VM's do not count)", async () => {
    const { outscaleInstanceSource } = await import('../../../src/testbed/cluster/kubelet/sources/outscale-source.js');
    const vm = {
      id: 'i-1',
      name: 'i-1',
      instanceType: 'tinav7.c4r16p2',
      zone: 'eu-west-2a',
      state: 'running',
      tags: {},
      userData: 'kubelet',
      createdAt: 1,
      providerID: 'aws:///eu-west-2a/i-1',
      privateIp: '10.0.1.5',
      privateDnsName: 'ip-10-0-1-5.eu-west-2.compute.internal',
      imageId: 'ami-1',
      securityGroupIds: [],
      performance: 'high',
      vcores: 4,
      ramGiB: 16,
      flexibleGpuIds: ['fgpu-1', 'fgpu-2'],
      visible: true,
    };
    const gpu = (id: string, state: string, vmId?: string) => ({
      id,
      modelName: 'nvidia-l40',
      zone: 'eu-west-2a',
      state,
      deleteOnVmDeletion: true,
      ...(vmId ? { vmId } : {}),
    });
    const flexibleGpus = [
      gpu('fgpu-1', 'attached', 'i-1'),
      gpu('fgpu-2', 'attaching', 'i-1'),
      gpu('fgpu-3', 'attached', 'i-9'),
      gpu('fgpu-4', 'allocated'),
    ];
    const emulator = { region: 'eu-west-2', state: () => ({ instances: [vm], flexibleGpus }) };
    const source = outscaleInstanceSource(emulator as never, {
      cloud: 'outscale',
      retrieved: '2025-01-01',
      sources: [],
      regions: [],
      flavors: [],
    });
    expect(source.running()[0]?.capacity['nvidia.com/gpu']).toBe('1');
  });
});
