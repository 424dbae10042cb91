export { startOvhcloudEmulator } from './emulator.js';
export type { OvhClusterInfo, OvhClusterSpec, OvhcloudEmulator, OvhcloudEmulatorOptions } from './emulator.js';
export type { OvhCredential, ProjectQuota } from './context.js';
export {
  DEFAULT_TIMINGS as OVH_DEFAULT_TIMINGS,
  type OvhTimings,
  type NodeStatus as OvhNodeStatus,
  type PoolStatus as OvhPoolStatus,
} from './lifecycle.js';
export type { OvhEmulatorState, OvhInstanceSnapshot, OvhPoolSnapshot } from './snapshot.js';
export { signRequest as signOvhRequest } from './signature.js';
export { providerIdOf as ovhProviderIdOf } from './wire.js';
