export * from './types.js';
export * from './flavor-devices.js';
export { DraContext, type NodeDevices, type PoolDevice } from './context.js';
export { type PodClaim, type CompiledRequest, type RequestAlternative } from './claims.js';
export { allocate, ALLOCATION_STEP_BUDGET } from './allocate.js';
export { DeviceSelectorCompiler, celDevice } from './cel.js';
export { draObjectProblems, DraValidatedKinds } from './validate-object.js';
