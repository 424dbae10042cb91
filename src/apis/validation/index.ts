/** Runtime validation of the API model: OpenAPI structure + CEL rules + defaults, on any CRD schema. */
export * from './field-error.js';
export { SchemaValidator, type ValidateOptions } from './schema-validator.js';
export { KindValidators, admitObject, applyDefaults, validateObject } from './validate-object.js';
export { applySchemaDefaults } from './defaults.js';
export { findUnknownFields, pruneUnknownFields } from './pruning.js';
