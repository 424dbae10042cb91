// The extender's byte path (README.md here); the rest of the service imports it only through this file.
export * from './port.js';
export * from './name-spans.js';
export * from './read-name-spans.js';
export { ByteNameIndex } from './name-index.js';
export * from './encode-names.js';
