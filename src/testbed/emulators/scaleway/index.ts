export { startScalewayEmulator, type ScalewayEmulator, type ScalewayEmulatorOptions } from './emulator.js';
export type { ScalewayCredential } from './context.js';
export type { ScalewayEmulatorState, ScalewayInstanceSnapshot, ScalewayVolumeSnapshot } from './snapshot.js';
export type { Availability, ServerState } from './records.js';
export type { LifecycleTimings } from './lifecycle.js';
export { providerIdOf } from './wire.js';
