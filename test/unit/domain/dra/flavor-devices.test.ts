import { describe, expect, it } from 'vitest';
import { flavorDevices, nvidiaDriver } from '../../../../src/domain/dra/flavor-devices.js';
import type { InstanceType } from '../../../../src/domain/instancetypes/types.js';

const base: InstanceType = {
  name: 'L4-2-24G',
  cloud: 'scaleway',
  region: 'fr-par',
  labels: {},
  capacity: {},
  allocatable: {},
  offerings: [],
};

describe('flavorDevices', () => {
  it('publishes one NVIDIA device per GPU with the driver attribute and capacity names', () => {
    const published = flavorDevices({ ...base, gpu: { count: 2, name: 'l4', memoryMiB: 24576, manufacturer: 'nvidia' } });
    expect(published?.driver).toBe(nvidiaDriver);
    expect(published?.devices.map((d) => d.name)).toEqual(['gpu-0', 'gpu-1']);
    expect(published?.devices[1]).toEqual({
      name: 'gpu-1',
      attributes: {
        type: { string: 'gpu' },
        index: { int: 1 },
        productName: { string: 'NVIDIA L4' },
        brand: { string: 'Nvidia' },
        architecture: { string: 'Ada Lovelace' },
        cudaComputeCapability: { version: '8.9.0' },
      },
      capacity: { memory: { value: '24576Mi' } },
    });
  });

  it('publishes nothing for a flavor without a GPU or with an unknown model', () => {
    expect(flavorDevices(base)).toBeUndefined();
    expect(flavorDevices({ ...base, gpu: { count: 1, name: 'mi300', memoryMiB: 1, manufacturer: 'amd' } })).toBeUndefined();
  });
});
