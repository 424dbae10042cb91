/**
 * validateObject / applyDefaults for the kinds karpenter-eu serves (NodePool, NodeClaim, the NodeClasses),
 * chosen by the object's apiVersion and kind, against the same schemas the CRDs are generated from.
 */
import { type CrdDefinition, apiVersionOf, openApiSchemaOf } from '../crd/definition.js';
import { CrdDefinitions } from '../crd/registry.js';
import { type FieldError, notSupported, required } from './field-error.js';
import { isObject } from './json-value.js';
import { SchemaValidator, type ValidateOptions } from './schema-validator.js';

export type { ValidateOptions } from './schema-validator.js';

/** One SchemaValidator per served kind, built on first use. */
export class KindValidators {
  private readonly validators = new Map<CrdDefinition, SchemaValidator>();

  constructor(private readonly definitions: readonly CrdDefinition[] = CrdDefinitions) {}

  forObject(object: unknown): { validator?: SchemaValidator; errors: FieldError[] } {
    if (!isObject(object))
      return { errors: [{ path: '', type: 'FieldValueTypeInvalid', value: object, message: 'Invalid value: object expected' }] };
    const { apiVersion, kind } = object;
    if (typeof apiVersion !== 'string' || apiVersion === '') return { errors: [required('apiVersion')] };
    if (typeof kind !== 'string' || kind === '') return { errors: [required('kind')] };
    const definition = this.definitions.find((d) => apiVersionOf(d) === apiVersion && d.kind === kind);
    if (!definition) {
      const served = this.definitions.map((d) => `${apiVersionOf(d)}/${d.kind}`);
      return { errors: [notSupported('kind', `${apiVersion}/${kind}`, served)] };
    }
    let validator = this.validators.get(definition);
    if (!validator) {
      validator = new SchemaValidator(openApiSchemaOf(definition));
      this.validators.set(definition, validator);
    }
    return { validator, errors: [] };
  }
}

let shared: KindValidators | undefined;
function validators(): KindValidators {
  shared ??= new KindValidators();
  return shared;
}

/** Field errors of `object` under its kind's schema and CEL rules; `oldObject` enables transition rules. */
export function validateObject(object: unknown, options: ValidateOptions = {}): FieldError[] {
  const { validator, errors } = validators().forObject(object);
  return validator ? validator.validate(object, options) : errors;
}

/** `object` with its CRD's defaults applied, as the API server stores it. Unknown kinds come back unchanged. */
export function applyDefaults<T>(object: T): T {
  const { validator } = validators().forObject(object);
  return validator ? validator.applyDefaults(object) : object;
}

/** Prune, default and validate, as the API server does on create (no oldObject) or update. */
export function admitObject<T>(object: T, options: ValidateOptions = {}): { object: T; errors: FieldError[] } {
  const { validator, errors } = validators().forObject(object);
  return validator ? validator.admit(object, options) : { object, errors };
}
