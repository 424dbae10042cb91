export * from './types.js';
export { solve } from './scheduler.js';
export { PodCompileError } from './pod-info.js';
export { MERGE_ATTEMPT_BUDGET } from './merge-claims.js';
export {
  type InstanceTypeResolver,
  type ManifestEntry,
  type NodeClassObject,
  type ObjectError,
  schedulingInputFromManifests,
} from './manifest-input.js';
