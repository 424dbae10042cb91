export * from './types.js';
export * from './allocatable.js';
export * from './gpu-mapping.js';
export * from './pricing.js';
export * from './build.js';
export * from './offering-choice.js';
