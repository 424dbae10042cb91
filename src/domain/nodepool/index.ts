export * from './status.js';
export * from './limits.js';
