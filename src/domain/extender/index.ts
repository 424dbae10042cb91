export * from './types.js';
export * from './node-columns.js';
export * from './errors.js';
export * from './candidates.js';
export * from './pod-facts.js';
export * from './filter.js';
export * from './score.js';
export * from './prioritize.js';
