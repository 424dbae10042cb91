/** mutate then validate, as the API server chains the two webhooks; what `validate -f` reports per object. */
import { kindOf } from './object-access.js';
import { mutate } from './mutate.js';
import { effectiveNodePool } from './rules/defaults.js';
import type { AdmissionContext, KubeObject } from './types.js';
import { validate } from './validate.js';

export interface AdmissionOutcome {
  allowed: boolean;
  message: string;
  warnings: string[];
  /** The object as the API server stores it: as written (the webhooks write no default into it). */
  object: KubeObject;
  /** The object as the service reads it: a NodePool with its read-time defaults, anything else as stored. */
  effective: KubeObject;
}

export function admit(object: KubeObject, context: AdmissionContext): AdmissionOutcome {
  const mutation = mutate(object, context);
  const result = validate(object, context);
  return {
    allowed: result.allowed,
    message: result.message,
    warnings: [...mutation.warnings, ...result.warnings],
    object,
    effective: kindOf(object) === 'NodePool' ? effectiveNodePool(object, context) : object,
  };
}
