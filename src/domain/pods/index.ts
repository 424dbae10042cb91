export * from './facts.js';
export * from './requests.js';
export * from './host-ports.js';
