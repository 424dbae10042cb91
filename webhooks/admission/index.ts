export * from './server.js';
export * from './context-provider.js';
export * from './review.js';
