export * from './types.js';
export { validate, isOwnedKind, OwnedKinds } from './validate.js';
export { mutate } from './mutate.js';
export { effectiveNodePool } from './rules/defaults.js';
export { admit, type AdmissionOutcome } from './admit.js';
export { cronProblem } from './rules/disruption.js';
export { admitOffline, isReviewedOffline, type OfflineAdmission, type OfflineCatalogs } from './offline.js';
export { foreignKarpenterKind } from './foreign-kinds.js';
