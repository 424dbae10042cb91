/** The scenario, in order. Add a step here (and a file beside it) as features land. */
import type { DemoStep } from '../scenario.js';
import { consolidationStep, driftStep } from './disruption.js';
import { installStep, rejectStep } from './install.js';
import { flavorsStep, gpuStep, scaleUpStep, zoneSpreadStep } from './workloads.js';

export const demoSteps: readonly DemoStep[] = [
  installStep,
  rejectStep,
  scaleUpStep,
  flavorsStep,
  zoneSpreadStep,
  gpuStep,
  consolidationStep,
  driftStep,
];
