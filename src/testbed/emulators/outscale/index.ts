export { startOutscaleEmulator, type OutscaleEmulator, type OutscaleEmulatorOptions } from './emulator.js';
export type { OscCredential } from './sigv4.js';
export type { OutscaleQuotas } from './context.js';
export type { OutscaleEmulatorState, OutscaleInstanceSnapshot, OutscaleFlexibleGpuSnapshot } from './snapshot.js';
export type { LifecycleTimings, VmState, FlexibleGpuState } from './records.js';
export type { SeededNetwork } from './seed-network.js';
export { providerIdOf } from './wire.js';
