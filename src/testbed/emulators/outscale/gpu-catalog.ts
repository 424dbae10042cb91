/**
 * The flexible GPU models the emulated cloud offers (ReadFlexibleGpuCatalog). The list and limits are the
 * documented ones (docs.outscale.com About-Flexible-GPUs, reference §C2); VRam is in MiB.
 */

export interface FlexibleGpuModel {
  ModelName: string;
  VRam: number;
  MaxCpu: number;
  MaxRam: number;
  Generations: string[];
}

export const FLEXIBLE_GPU_MODELS: readonly FlexibleGpuModel[] = [
  { ModelName: 'nvidia-a100', VRam: 40_960, MaxCpu: 35, MaxRam: 250, Generations: ['v5', 'v6'] },
  { ModelName: 'nvidia-a100-80', VRam: 81_920, MaxCpu: 35, MaxRam: 256, Generations: ['v6'] },
  { ModelName: 'nvidia-l40', VRam: 49_152, MaxCpu: 35, MaxRam: 250, Generations: ['v7'] },
  { ModelName: 'nvidia-v100', VRam: 16_384, MaxCpu: 35, MaxRam: 250, Generations: ['v5'] },
  { ModelName: 'nvidia-p100', VRam: 16_384, MaxCpu: 80, MaxRam: 512, Generations: ['v5'] },
  { ModelName: 'nvidia-p6', VRam: 16_384, MaxCpu: 80, MaxRam: 512, Generations: ['v5'] },
  { ModelName: 'nvidia-k2', VRam: 4_096, MaxCpu: 80, MaxRam: 512, Generations: ['v3'] },
  { ModelName: 'nvidia-m60', VRam: 8_192, MaxCpu: 80, MaxRam: 512, Generations: ['v3', 'v4'] },
];
