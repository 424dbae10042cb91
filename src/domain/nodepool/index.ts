export * from './status.js';
export * from './limits.js';
export * from './static.js';
