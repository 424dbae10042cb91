import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CloudNames } from '../../../../src/apis/v1/labels.js';
import {
  MiB,
  eksKubeReservedMemoryMiB,
  gkeKubeReservedMemoryMiB,
  kubeReservedCpuMillis,
  nodeAllocatable,
} from '../../../../src/domain/instancetypes/allocatable.js';

describe('kube-reserved CPU (GKE / Karpenter AWS tiers)', () => {
  it.each([
    [1, 60],
    [2, 70],
    [4, 80],
    [8, 90],
    [16, 110],
    [32, 150],
    [64, 230],
  ])('%i vCPU → %im', (vcpus, millis) => expect(kubeReservedCpuMillis(vcpus)).toBe(millis));
});

describe('kube-reserved memory', () => {
  it.each([
    [512, 255],
    [4096, 1024],
    [8192, 1844], // 1024 + 819.2, rounded up
    [16384, 2663], // + 819.2
    [32768, 3646], // + 983.04
  ])('GKE tiers: %i MiB → %i MiB', (mib, reserved) => expect(gkeKubeReservedMemoryMiB(mib)).toBe(reserved));

  it('EKS formula: 11 MiB × maxPods + 255 MiB', () => expect(eksKubeReservedMemoryMiB(110)).toBe(1465));

  it('GKE reservation grows with memory and stays a minority of it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1024, max: 2_000_000 }), fc.integer({ min: 1, max: 100_000 }), (mib, more) => {
        expect(gkeKubeReservedMemoryMiB(mib + more)).toBeGreaterThanOrEqual(gkeKubeReservedMemoryMiB(mib));
        expect(gkeKubeReservedMemoryMiB(mib)).toBeLessThanOrEqual(mib * 0.25 + 1);
      }),
    );
  });
});

describe('nodeAllocatable', () => {
  it('computes an OVH b3-8 node as documented', () => {
    const { capacity, allocatable } = nodeAllocatable({ vcpus: 2, memoryMiB: 8192, localDiskGiB: 25 }, 'ovhcloud');
    // 8192 MiB − 7.5 % guest overhead (615) = 7577 MiB; − 1465 (EKS) − 100 (system) − 100 (eviction).
    expect(capacity).toMatchObject({ cpu: 2000, memory: 7577 * MiB, pods: 110 });
    expect(allocatable).toMatchObject({ cpu: 2000 - 70 - 100, memory: (7577 - 1465 - 100 - 100) * MiB, pods: 110 });
  });

  it('keeps GPUs whole', () => {
    const { capacity, allocatable } = nodeAllocatable({ vcpus: 8, memoryMiB: 49152, gpuCount: 2 }, 'scaleway');
    expect(capacity['nvidia.com/gpu']).toBe(2);
    expect(allocatable['nvidia.com/gpu']).toBe(2);
  });

  it('property: 0 < allocatable < capacity for cpu, memory and ephemeral-storage on every cloud', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CloudNames),
        fc.integer({ min: 1, max: 192 }),
        fc.integer({ min: 2, max: 4096 }),
        fc.option(fc.integer({ min: 10, max: 4000 }), { nil: undefined }),
        (cloud, vcpus, memoryGiB, localDiskGiB) => {
          const { capacity, allocatable } = nodeAllocatable({ vcpus, memoryMiB: memoryGiB * 1024, localDiskGiB }, cloud);
          for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
            expect(allocatable[r]).toBeGreaterThan(0);
            expect(allocatable[r]).toBeLessThan(capacity[r]!);
          }
        },
      ),
    );
  });
});
