import { describe, expect, it } from 'vitest';
import type { DraObjects } from '../../../../src/domain/dra/index.js';
import { flavorDevices } from '../../../../src/domain/dra/index.js';
import type { InstanceType } from '../../../../src/domain/instancetypes/types.js';
import { solve } from '../../../../src/domain/scheduling/index.js';
import type { ExistingNode, PodLike, SchedulingInput } from '../../../../src/domain/scheduling/types.js';
import { GiBytes, instanceType, nodePool, pod } from './helpers.js';

function gpuType(name: string, cpu: number, price: number, gpu: { name: string; count: number; memoryMiB: number }): InstanceType {
  const type = instanceType(name, cpu, cpu * 4, price, { gpu: gpu.count });
  return { ...type, gpu: { ...gpu, manufacturer: 'nvidia' } };
}

const types = (): InstanceType[] => [
  instanceType('cpu-8', 8, 32, 0.2),
  gpuType('L4-1-24G', 8, 0.75, { name: 'l4', count: 1, memoryMiB: 24576 }),
  gpuType('L4-2-24G', 16, 1.6, { name: 'l4', count: 2, memoryMiB: 24576 }),
  gpuType('L40S-1-48G', 8, 1.4, { name: 'l40s', count: 1, memoryMiB: 49152 }),
  gpuType('H100-1-80G', 24, 2.73, { name: 'h100', count: 1, memoryMiB: 81920 }),
];

const selector = (expression: string) => ({ cel: { expression } });
const memory40 = 'device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0';
const product = (name: string) => `device.attributes["gpu.nvidia.com"].productName == "${name}"`;

function spec(count: number, expression: string) {
  return {
    devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.nvidia.com', count, selectors: [selector(expression)] } }] },
  };
}

const dra = (extra: DraObjects = {}): DraObjects => ({
  deviceClasses: [{ metadata: { name: 'gpu.nvidia.com' }, spec: { selectors: [selector('device.driver == "gpu.nvidia.com"')] } }],
  resourceClaimTemplates: [
    { metadata: { name: 'big-gpu', namespace: 'default' }, spec: { spec: spec(1, memory40) } },
    { metadata: { name: 'two-l4', namespace: 'default' }, spec: { spec: spec(2, product('NVIDIA L4')) } },
    { metadata: { name: 'b200', namespace: 'default' }, spec: { spec: spec(1, product('NVIDIA B200')) } },
    {
      metadata: { name: 'any-gpu', namespace: 'default' },
      spec: { spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.nvidia.com' } }] } } },
    },
  ],
  resourceClaims: [{ metadata: { name: 'shared-l40s', namespace: 'default' }, spec: spec(1, product('NVIDIA L40S')) }],
  ...extra,
});

function claimPod(name: string, entry: { resourceClaimTemplateName?: string; resourceClaimName?: string }, cpu = '1'): PodLike {
  const base = pod(name, cpu, '1Gi');
  return { ...base, spec: { ...base.spec, containers: base.spec?.containers ?? [], resourceClaims: [{ name: 'gpu', ...entry }] } };
}

function input(pods: PodLike[], extra: Partial<SchedulingInput> = {}): SchedulingInput {
  return { pods, nodePools: [nodePool('gpu', types())], dra: dra(), ...extra };
}

const chosen = (pods: PodLike[], extra: Partial<SchedulingInput> = {}) => solve(input(pods, extra));

describe('scheduling pods with DRA resource claims', () => {
  it('a claim for any NVIDIA GPU with ≥ 40Gi gets the cheapest flavor whose device has that much: an L40S, not an L4', () => {
    const result = chosen([claimPod('trainer', { resourceClaimTemplateName: 'big-gpu' })]);
    expect(result.unschedulable).toEqual([]);
    expect(result.newNodeClaims.map((c) => c.instanceType)).toEqual(['L40S-1-48G']);
    expect(result.newNodeClaims[0]?.instanceTypeOptions.map((o) => o.name)).toEqual(['L40S-1-48G', 'H100-1-80G']);
  });

  it('2 × L4 on one node: a count-2 request gets an L4-2, and two one-L4 pods do not share an L4-1', () => {
    expect(chosen([claimPod('pair', { resourceClaimTemplateName: 'two-l4' })]).newNodeClaims.map((c) => c.instanceType)).toEqual([
      'L4-2-24G',
    ]);
    const two = chosen([claimPod('a', { resourceClaimTemplateName: 'any-gpu' }), claimPod('b', { resourceClaimTemplateName: 'any-gpu' })]);
    expect(two.unschedulable).toEqual([]);
    expect(two.newNodeClaims.map((c) => [c.instanceType, c.pods.length])).toEqual([
      ['L4-1-24G', 1],
      ['L4-1-24G', 1],
    ]);
  });

  it('an L40S shared by two pods through one claim is allocated once: both pods on one L40S node', () => {
    const result = chosen([claimPod('a', { resourceClaimName: 'shared-l40s' }), claimPod('b', { resourceClaimName: 'shared-l40s' })]);
    expect(result.unschedulable).toEqual([]);
    expect(result.newNodeClaims.map((c) => [c.instanceType, [...c.pods].sort()])).toEqual([['L40S-1-48G', ['default/a', 'default/b']]]);
  });

  it('pods sharing a claim stay together even when the first one fills its node', () => {
    const result = chosen([
      claimPod('a', { resourceClaimName: 'shared-l40s' }, '7'),
      claimPod('b', { resourceClaimName: 'shared-l40s' }, '2'),
    ]);
    // The claim's one device is on the first pod's node: the second pod cannot get it elsewhere.
    expect(result.newNodeClaims.every((c) => c.pods.length === 1 && c.pods[0] === 'default/a')).toBe(true);
    expect(result.unschedulable.map((u) => u.pod)).toEqual(['default/b']);
    expect(result.unschedulable[0]?.reason).toContain('ResourceClaim default/shared-l40s');
  });

  it('a claim no flavor can satisfy is reported and nothing is launched for it', () => {
    const result = chosen([claimPod('blackwell', { resourceClaimTemplateName: 'b200' })]);
    expect(result.newNodeClaims).toEqual([]);
    expect(result.unschedulable).toHaveLength(1);
    expect(result.unschedulable[0]?.reason).toMatch(/no instance type publishes devices that satisfy the pod's resource claims/);
  });

  it('a claim whose template or class is missing is reported naming it', () => {
    const result = solve({ ...input([claimPod('lost', { resourceClaimTemplateName: 'big-gpu' })]), dra: undefined });
    expect(result.newNodeClaims).toEqual([]);
    expect(result.unschedulable[0]?.reason).toContain('ResourceClaimTemplate default/big-gpu not found');
  });

  it('pods without claims still go to the cheapest flavor', () => {
    expect(chosen([pod('web', '1', '1Gi')]).newNodeClaims.map((c) => c.instanceType)).toEqual(['cpu-8']);
  });

  describe('on existing nodes', () => {
    const l40sNode = (name: string): ExistingNode => ({
      name,
      labels: { 'kubernetes.io/hostname': name },
      allocatable: { cpu: 7900, memory: 32 * GiBytes, pods: 110 },
      pods: [],
    });
    const slice = (name: string) => ({
      spec: {
        driver: 'gpu.nvidia.com',
        pool: { name },
        nodeName: name,
        devices: [...(flavorDevices(types()[3] as InstanceType)?.devices ?? [])],
      },
    });

    it('a pod goes to an existing node whose published device is free', () => {
      const result = chosen([claimPod('trainer', { resourceClaimTemplateName: 'big-gpu' })], {
        existingNodes: [{ ...l40sNode('cpu-node') }, l40sNode('gpu-node')],
        dra: dra({ resourceSlices: [slice('gpu-node')] }),
      });
      expect(result.newNodeClaims).toEqual([]);
      expect(result.existingNodeAssignments).toEqual([{ node: 'gpu-node', pods: ['default/trainer'] }]);
    });

    it('a device allocated in a claim status is taken: the pod gets a new node', () => {
      const taken = {
        metadata: { name: 'other', namespace: 'default' },
        status: { allocation: { devices: { results: [{ driver: 'gpu.nvidia.com', pool: 'gpu-node', device: 'gpu-0' }] } } },
      };
      const base = dra({ resourceSlices: [slice('gpu-node')] });
      const result = chosen([claimPod('trainer', { resourceClaimTemplateName: 'big-gpu' })], {
        existingNodes: [l40sNode('gpu-node')],
        dra: { ...base, resourceClaims: [...(base.resourceClaims ?? []), taken] },
      });
      expect(result.existingNodeAssignments).toEqual([]);
      expect(result.newNodeClaims.map((c) => c.instanceType)).toEqual(['L40S-1-48G']);
    });

    it('a pod whose shared claim is allocated already goes to that node only', () => {
      const allocated = {
        metadata: { name: 'shared-l40s', namespace: 'default' },
        spec: spec(1, product('NVIDIA L40S')),
        status: {
          allocation: {
            devices: { results: [{ driver: 'gpu.nvidia.com', pool: 'gpu-b', device: 'gpu-0' }] },
            nodeSelector: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['gpu-b'] }] }] },
          },
        },
      };
      const base = dra({ resourceSlices: [slice('gpu-a'), slice('gpu-b')] });
      const result = chosen([claimPod('second', { resourceClaimName: 'shared-l40s' })], {
        existingNodes: [l40sNode('gpu-a'), l40sNode('gpu-b')],
        dra: { ...base, resourceClaims: [allocated] },
      });
      expect(result.existingNodeAssignments).toEqual([{ node: 'gpu-b', pods: ['default/second'] }]);
    });

    it('an in-flight NodeClaim without a ResourceSlice yet offers the devices its flavor will publish', () => {
      const inFlight: ExistingNode = {
        ...l40sNode('claim-1'),
        inFlight: true,
        deviceOptions: [[flavorDevices(types()[3] as InstanceType) as never]],
      };
      const cpuClaim: ExistingNode = { ...l40sNode('claim-0'), inFlight: true };
      const result = chosen([claimPod('trainer', { resourceClaimTemplateName: 'big-gpu' })], { existingNodes: [cpuClaim, inFlight] });
      expect(result.existingNodeAssignments).toEqual([{ node: 'claim-1', pods: ['default/trainer'] }]);
    });

    it('an in-flight NodeClaim that may still become an L4 or an L40S takes the pod only if both could allocate it', () => {
      const [l4, l40s] = [flavorDevices(types()[1] as InstanceType), flavorDevices(types()[3] as InstanceType)];
      const either: ExistingNode = { ...l40sNode('claim-1'), inFlight: true, deviceOptions: [[l4 as never], [l40s as never]] };
      const big = chosen([claimPod('trainer', { resourceClaimTemplateName: 'big-gpu' })], { existingNodes: [either] });
      expect(big.existingNodeAssignments).toEqual([]);
      const any = chosen([claimPod('infer', { resourceClaimTemplateName: 'any-gpu' })], { existingNodes: [either] });
      expect(any.existingNodeAssignments).toEqual([{ node: 'claim-1', pods: ['default/infer'] }]);
    });
  });
});
