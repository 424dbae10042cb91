export * from './server.js';
export type { ExtenderHandlerDeps } from './handlers.js';
