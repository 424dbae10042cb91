export * from './apply.js';
export * from './price.js';
export * from './conflict-message.js';
export * from './status.js';
