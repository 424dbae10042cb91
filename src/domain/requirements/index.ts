export * from './well-known.js';
export * from './requirement.js';
export * from './requirements.js';
export * from './incompatibility.js';
export * from './pod-requirements.js';
export * from './label-validation.js';
export * from './label-selector.js';
export * from './taints.js';
