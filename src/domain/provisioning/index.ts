export * from './is-provisionable.js';
