/** mutate(object, context): the defaults as a JSON patch (RFC 6902) against the object as received. */
import { deepCopy } from '../../util/json-copy.js';
import { createJsonPatch, type JsonValue } from '../../util/json-patch.js';
import { kindOf } from './object-access.js';
import { defaultNodePool, defaultOVHNodeClass } from './rules/defaults.js';
import type { AdmissionContext, KubeObject, MutationResult } from './types.js';

export function mutate(object: KubeObject, context: AdmissionContext): MutationResult {
  if (context.operation !== 'CREATE' && context.operation !== 'UPDATE') return { patch: [], warnings: [] };
  const mutated = deepCopy(object);
  let warnings: string[];
  switch (kindOf(object)) {
    case 'NodePool':
      warnings = defaultNodePool(mutated, context);
      break;
    case 'OVHNodeClass':
      warnings = defaultOVHNodeClass(mutated, context);
      break;
    default:
      return { patch: [], warnings: [] };
  }
  return { patch: createJsonPatch(object as JsonValue, mutated as JsonValue), warnings };
}
