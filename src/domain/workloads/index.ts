export * from './expand.js';
