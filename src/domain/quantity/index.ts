export * from './quantity.js';
export * from './errors.js';
export * from './parse.js';
export * from './format.js';
export * from './arithmetic.js';
export * from './resource-list.js';
export { interpretSuffix } from './suffix.js';
