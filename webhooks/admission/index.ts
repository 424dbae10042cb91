export * from './server.js';
export * from '../../src/domain/admission/context-provider.js';
export * from './review.js';
