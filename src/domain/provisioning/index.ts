export * from './is-provisionable.js';
export * from './batch-window.js';
export * from './limit-ledger.js';
export * from './lifecycle.js';
export * from './node-sync.js';
export * from './nodeclaim-template.js';
export * from './displaced-pods.js';
export * from './existing-capacity.js';
