import { describe, expect, it } from 'vitest';
import {
  celDevice,
  DeviceSelectorCompiler,
  DraContext,
  type DraObjects,
  flavorDevices,
  type PodClaim,
} from '../../../../src/domain/dra/index.js';
import type { InstanceType } from '../../../../src/domain/instancetypes/types.js';
import type { PodLike } from '../../../../src/domain/scheduling/types.js';

function gpuType(name: string, gpu: string, count: number, memoryMiB: number): InstanceType {
  return {
    name,
    cloud: 'scaleway',
    region: 'fr-par',
    labels: {},
    capacity: {},
    allocatable: {},
    offerings: [],
    gpu: { count, name: gpu, memoryMiB, manufacturer: 'nvidia' },
  };
}

const l4 = gpuType('L4-1-24G', 'l4', 1, 24576);
const l4x2 = gpuType('L4-2-24G', 'l4', 2, 24576);
const l40s = gpuType('L40S-1-48G', 'l40s', 1, 49152);
const h100x2 = gpuType('H100-2-80G', 'h100', 2, 81920);

const gpuClass = {
  metadata: { name: 'gpu.nvidia.com' },
  spec: { selectors: [{ cel: { expression: 'device.driver == "gpu.nvidia.com"' } }] },
};
const memory40 = 'device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0';
const productIs = (name: string): string => `device.attributes["gpu.nvidia.com"].productName == "${name}"`;

function template(name: string, requests: unknown[]): NonNullable<DraObjects['resourceClaimTemplates']>[number] {
  return { metadata: { name, namespace: 'default' }, spec: { spec: { devices: { requests: requests as never } } } };
}

function claimPod(name: string, entry: Record<string, string>): PodLike {
  return { metadata: { name, namespace: 'default' }, spec: { containers: [], resourceClaims: [{ name: 'gpu', ...entry }] } };
}

describe('DRA device selectors (CEL)', () => {
  const compiler = new DeviceSelectorCompiler();
  const device = (type: InstanceType) => {
    const published = flavorDevices(type);
    return celDevice(published?.driver ?? '', published?.devices[0] as never);
  };

  it('compares capacities as quantities and versions as semver', () => {
    const big = compiler.compile(memory40);
    expect(typeof big === 'function' && big(device(l40s))).toBe(true);
    expect(typeof big === 'function' && big(device(l4))).toBe(false);
    const greater = compiler.compile('device.capacity["gpu.nvidia.com"].memory.isGreaterThan(quantity("24Gi"))');
    expect(typeof greater === 'function' && [greater(device(l4)), greater(device(l40s))]).toEqual([false, true]);
    const hopper = compiler.compile('device.attributes["gpu.nvidia.com"].cudaComputeCapability.isGreaterThan(semver("8.9.0"))');
    expect(typeof hopper === 'function' && [hopper(device(l40s)), hopper(device(h100x2))]).toEqual([false, true]);
    const index = compiler.compile('device.attributes["gpu.nvidia.com"].index == 0');
    expect(typeof index === 'function' && index(device(l4))).toBe(true);
  });

  it('compiles each expression once and reports parse and evaluation errors instead of throwing', () => {
    expect(compiler.compile(memory40)).toBe(compiler.compile(memory40));
    const broken = compiler.compile('device.driver ==');
    expect(broken).toBeInstanceOf(Error);
    expect((broken as Error).message).toContain('does not compile');
    const missing = compiler.compile('device.attributes["example.com"].model == "x"');
    expect(typeof missing).toBe('function');
    expect(typeof missing === 'function' && missing(device(l4))).toBeInstanceOf(Error);
    const notBool = compiler.compile('device.driver');
    expect(typeof notBool === 'function' && (notBool(device(l4)) as Error).message).toContain('not a bool');
  });
});

describe('DRA allocation feasibility', () => {
  const objects: DraObjects = {
    deviceClasses: [gpuClass],
    resourceClaimTemplates: [
      template('big', [{ name: 'gpu', exactly: { deviceClassName: 'gpu.nvidia.com', selectors: [{ cel: { expression: memory40 } }] } }]),
      template('two-l4', [
        {
          name: 'gpus',
          exactly: { deviceClassName: 'gpu.nvidia.com', count: 2, selectors: [{ cel: { expression: productIs('NVIDIA L4') } }] },
        },
      ]),
      template('all', [{ name: 'gpus', exactly: { deviceClassName: 'gpu.nvidia.com', allocationMode: 'All' } }]),
      template('split', [
        { name: 'a', exactly: { deviceClassName: 'gpu.nvidia.com' } },
        { name: 'b', exactly: { deviceClassName: 'gpu.nvidia.com' } },
      ]),
      template('prefer-h100', [
        {
          name: 'gpu',
          firstAvailable: [
            { name: 'h100', deviceClassName: 'gpu.nvidia.com', selectors: [{ cel: { expression: productIs('NVIDIA H100 PCIe') } }] },
            { name: 'l4', deviceClassName: 'gpu.nvidia.com', selectors: [{ cel: { expression: productIs('NVIDIA L4') } }] },
          ],
        },
      ]),
      template('no-class', [{ name: 'gpu', exactly: { deviceClassName: 'example.com' } }]),
      template('bad-cel', [
        { name: 'gpu', exactly: { deviceClassName: 'gpu.nvidia.com', selectors: [{ cel: { expression: 'device.(' } }] } },
      ]),
    ],
  };
  const context = new DraContext(objects);
  const claimsOf = (name: string) => context.podClaims(claimPod('p', { resourceClaimTemplateName: name })) ?? [];
  const fits = (name: string, type: InstanceType): boolean => context.flavorFits(type, claimsOf(name));

  it('a ≥ 40Gi request fits an L40S or an H100, never an L4', () => {
    expect([fits('big', l4), fits('big', l40s), fits('big', h100x2)]).toEqual([false, true, true]);
  });

  it('ExactCount 2 needs two matching devices on one node', () => {
    expect([fits('two-l4', l4), fits('two-l4', l4x2), fits('two-l4', h100x2)]).toEqual([false, true, false]);
  });

  it('All takes every matching device and needs at least one; several requests take distinct devices', () => {
    expect([fits('all', l4), fits('all', h100x2), fits('all', gpuType('CPU', 'none', 0, 0))]).toEqual([true, true, false]);
    expect([fits('split', l4), fits('split', l4x2)]).toEqual([false, true]);
  });

  it('firstAvailable takes the first subrequest that can be allocated', () => {
    expect([fits('prefer-h100', l4), fits('prefer-h100', h100x2), fits('prefer-h100', l40s)]).toEqual([true, true, false]);
  });

  it('two claims on one node need devices of their own', () => {
    expect(context.flavorFits(l4x2, [...claimsOf('big'), ...claimsOf('big')])).toBe(false);
    expect(context.flavorFits(h100x2, [...claimsOf('big'), ...claimsOf('big')])).toBe(true);
  });

  it('a missing DeviceClass, template or claim, or a selector that does not compile, is an error naming it', () => {
    expect(() => claimsOf('no-class')).toThrow('DeviceClass "example.com" not found');
    expect(() => claimsOf('absent')).toThrow('ResourceClaimTemplate default/absent not found');
    expect(() => claimsOf('bad-cel')).toThrow(/selectors\[0\]: selector "device\.\(" does not compile/);
    expect(() => context.podClaims(claimPod('p', { resourceClaimName: 'shared' }))).toThrow('ResourceClaim default/shared not found');
  });

  it("an existing node's free devices are its ResourceSlice's devices less those allocated in claim statuses", () => {
    const published = flavorDevices(l4x2);
    const withSlice = new DraContext({
      ...objects,
      resourceSlices: [
        { spec: { driver: 'gpu.nvidia.com', pool: { name: 'node-a' }, nodeName: 'node-a', devices: [...(published?.devices ?? [])] } },
      ],
      resourceClaims: [
        {
          metadata: { name: 'used', namespace: 'default' },
          status: { allocation: { devices: { results: [{ request: 'gpu', driver: 'gpu.nvidia.com', pool: 'node-a', device: 'gpu-0' }] } } },
        },
      ],
    });
    const node = withSlice.nodeDevices('node-a', undefined);
    expect(node.devices.map((d) => d.id)).toEqual(['gpu.nvidia.com/node-a/gpu-0', 'gpu.nvidia.com/node-a/gpu-1']);
    expect([...node.taken]).toEqual(['gpu.nvidia.com/node-a/gpu-0']);
    const two = withSlice.podClaims(claimPod('p', { resourceClaimTemplateName: 'two-l4' })) ?? [];
    const split = withSlice.podClaims(claimPod('q', { resourceClaimTemplateName: 'split' }))?.[0] as PodClaim;
    const one: PodClaim = { ...split, requests: split.requests.slice(0, 1) };
    expect(withSlice.allocateOn(node, node.taken, two)).toBeUndefined();
    expect(withSlice.allocateOn(node, node.taken, [one])).toEqual(['gpu.nvidia.com/node-a/gpu-1']);
    // A node whose driver has not published yet offers what its flavor will publish.
    expect(withSlice.nodeDevices('node-b', [published as never]).devices.map((d) => d.id)).toEqual([
      'gpu.nvidia.com/node-b/gpu-0',
      'gpu.nvidia.com/node-b/gpu-1',
    ]);
  });
});
