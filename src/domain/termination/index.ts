export * from './drain-plan.js';
export * from './termination-facts.js';
export * from './garbage-collection.js';
export * from './volume-detachment.js';
export * from './listing-shrink.js';
export * from './nodeclass-finalizer.js';
export * from './claim-resources.js';
