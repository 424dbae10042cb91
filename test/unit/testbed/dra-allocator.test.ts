/** The test bed scheduler's structured-parameters allocator, on one node's devices. */
import { describe, expect, it } from 'vitest';
import { flavorDevices } from '../../../src/domain/dra/flavor-devices.js';
import type { InstanceType } from '../../../src/domain/instancetypes/types.js';
import { allocateOnNode } from '../../../src/testbed/cluster/scheduler/dra/allocator.js';
import { deviceSelectorMatcher } from '../../../src/testbed/cluster/scheduler/dra/device-matcher.js';
import type { DeviceRequest, WireResourceClaim } from '../../../src/testbed/cluster/scheduler/dra/types.js';

const driver = 'gpu.nvidia.com';
const classes = new Map([
  [driver, { metadata: { name: driver }, spec: { selectors: [{ cel: { expression: `device.driver == "${driver}"` } }] } }],
]);
const fourL4 = (
  flavorDevices({ gpu: { count: 4, name: 'l4', memoryMiB: 24576, manufacturer: 'nvidia' } } as InstanceType)?.devices ?? []
).map((device) => ({ driver, pool: 'node-a', device }));

function claim(requests: DeviceRequest[], constraints: WireResourceClaim['spec']['devices'] = {}): WireResourceClaim {
  return { metadata: { name: 'c', namespace: 'default' }, spec: { devices: { requests, ...constraints } } };
}

function allocate(claims: WireResourceClaim[], inUse: string[] = []) {
  return allocateOnNode({ nodeName: 'node-a', claims, devices: fourL4, inUse: new Set(inUse), classes, matches: deviceSelectorMatcher() });
}

const exactly = (count: number, expression?: string) => ({
  deviceClassName: driver,
  count,
  ...(expression ? { selectors: [{ cel: { expression } }] } : {}),
});

describe('allocateOnNode', () => {
  it('takes free devices only, and fails when fewer are left than the count', () => {
    const two = allocate([claim([{ name: 'gpu', exactly: exactly(2) }])], [`${driver}/node-a/gpu-0`]);
    expect(two?.[0]?.devices.results.map((r) => r.device)).toEqual(['gpu-1', 'gpu-2']);
    expect(allocate([claim([{ name: 'gpu', exactly: exactly(4) }])], [`${driver}/node-a/gpu-0`])).toBeUndefined();
  });

  it('backtracks so that an unconstrained request leaves a specific one the device it needs', () => {
    const result = allocate(
      [
        claim([
          { name: 'any', exactly: exactly(1) },
          { name: 'first', exactly: exactly(1, `device.attributes["${driver}"].index == 0`) },
        ]),
      ],
      [`${driver}/node-a/gpu-1`, `${driver}/node-a/gpu-2`, `${driver}/node-a/gpu-3`],
    );
    expect(result).toBeUndefined();
    const spare = allocate([
      claim([
        { name: 'any', exactly: exactly(1) },
        { name: 'first', exactly: exactly(1, `device.attributes["${driver}"].index == 0`) },
      ]),
    ]);
    expect(spare?.[0]?.devices.results.map((r) => `${r.request}=${r.device}`)).toEqual(['any=gpu-1', 'first=gpu-0']);
  });

  it('gives allocationMode All every matching device, and nothing when one of them is taken', () => {
    const all = { name: 'gpus', exactly: { deviceClassName: driver, allocationMode: 'All' as const } };
    expect(allocate([claim([all])])?.[0]?.devices.results).toHaveLength(4);
    expect(allocate([claim([all])], [`${driver}/node-a/gpu-3`])).toBeUndefined();
  });

  it('tries firstAvailable subrequests in order and names the result after the one taken', () => {
    const request = {
      name: 'gpu',
      firstAvailable: [
        { name: 'big', ...exactly(1, `device.capacity["${driver}"].memory.compareTo(quantity("40Gi")) >= 0`) },
        { name: 'l4', ...exactly(1, `device.attributes["${driver}"].productName == "NVIDIA L4"`) },
      ],
    };
    expect(allocate([claim([request])])?.[0]?.devices.results.map((r) => r.request)).toEqual(['gpu/l4']);
  });

  it('allocates several claims of one pod on distinct devices, with the node in each allocation', () => {
    const result = allocate([claim([{ name: 'gpu', exactly: exactly(2) }]), claim([{ name: 'gpu', exactly: exactly(2) }])]);
    expect(result?.flatMap((a) => a.devices.results.map((r) => r.device))).toEqual(['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3']);
    expect(result?.[1]?.nodeSelector?.nodeSelectorTerms[0]?.matchFields?.[0]?.values).toEqual(['node-a']);
  });

  it('holds a matchAttribute constraint over the requests it names', () => {
    const constrained = claim(
      [
        { name: 'a', exactly: exactly(1) },
        { name: 'b', exactly: exactly(1) },
      ],
      {
        constraints: [{ requests: ['a', 'b'], matchAttribute: `${driver}/index` }],
      },
    );
    expect(allocate([constrained])).toBeUndefined();
    const sameProduct = claim(
      [
        { name: 'a', exactly: exactly(1) },
        { name: 'b', exactly: exactly(1) },
      ],
      {
        constraints: [{ matchAttribute: `${driver}/productName` }],
      },
    );
    expect(allocate([sameProduct])?.[0]?.devices.results).toHaveLength(2);
  });
});
