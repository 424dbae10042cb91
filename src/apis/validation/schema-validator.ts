/** Validation of objects against any CRD schema: structure first, then the CEL rules, as kube-apiserver does. */
import type { OpenApiSchema } from '../schema/openapi-schema.js';
import { CelRuleCompiler } from './cel-environment.js';
import { noOldValue, validateCelRules } from './cel-rules.js';
import { applySchemaDefaults } from './defaults.js';
import { type FieldError, type FieldErrorType, unknownField } from './field-error.js';
import { findUnknownFields, pruneUnknownFields } from './pruning.js';
import { validateRootObject } from './structural.js';

export interface ValidateOptions {
  /** The stored object on update: enables transition rules (those reading `oldSelf`). */
  oldObject?: unknown;
  /** Report unknown fields as errors (as `kubectl --validate=strict`) instead of ignoring them (they are pruned). */
  rejectUnknownFields?: boolean;
}

const BlockingErrorTypes = new Set<FieldErrorType>([
  'FieldValueNotSupported',
  'FieldValueRequired',
  'FieldValueTooLong',
  'FieldValueTooMany',
  'FieldValueTypeInvalid',
]);

export class SchemaValidator {
  private readonly compiler = new CelRuleCompiler();

  constructor(readonly schema: OpenApiSchema) {}

  validate(object: unknown, options: ValidateOptions = {}): FieldError[] {
    const errors: FieldError[] = [];
    validateRootObject(this.schema, object, errors, { reportUnknownFields: options.rejectUnknownFields === true });
    if (errors.some((e) => BlockingErrorTypes.has(e.type))) {
      // kube-apiserver (hasBlockingErr) skips CEL when the object is structurally broken.
      errors.push({
        path: '',
        type: 'FieldValueInvalid',
        message:
          'Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
      });
      return errors;
    }
    const pruned = pruneUnknownFields(this.schema, object);
    const old = options.oldObject === undefined ? noOldValue() : pruneUnknownFields(this.schema, options.oldObject);
    validateCelRules(this.compiler, this.schema, pruned, old, errors);
    return errors;
  }

  applyDefaults<T>(object: T): T {
    return applySchemaDefaults(this.schema, object);
  }

  /** What the API server stores on create/update: pruned, defaulted, then validated. */
  admit<T>(object: T, options: ValidateOptions = {}): { object: T; errors: FieldError[] } {
    const errors = options.rejectUnknownFields ? findUnknownFields(this.schema, object).map(unknownField) : [];
    const stored = this.applyDefaults(pruneUnknownFields(this.schema, object));
    return { object: stored, errors: [...errors, ...this.validate(stored, { oldObject: options.oldObject })] };
  }
}
