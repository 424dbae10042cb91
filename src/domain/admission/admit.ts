/** mutate then validate, as the API server chains the two webhooks; what `validate -f` reports per object. */
import { applyJsonPatch, type JsonPatchOperation, type JsonValue } from '../../util/json-patch.js';
import { mutate } from './mutate.js';
import type { AdmissionContext, KubeObject } from './types.js';
import { validate } from './validate.js';

export interface AdmissionOutcome {
  allowed: boolean;
  message: string;
  warnings: string[];
  patch: JsonPatchOperation[];
  /** The object after the patch. */
  object: KubeObject;
}

export function admit(object: KubeObject, context: AdmissionContext): AdmissionOutcome {
  const mutation = mutate(object, context);
  const mutated = mutation.patch.length > 0 ? (applyJsonPatch(object as JsonValue, mutation.patch) as KubeObject) : object;
  const result = validate(mutated, context);
  return {
    allowed: result.allowed,
    message: result.message,
    warnings: [...mutation.warnings, ...result.warnings],
    patch: mutation.patch,
    object: mutated,
  };
}
