export * from './node-repair.js';
