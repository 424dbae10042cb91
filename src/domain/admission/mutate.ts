/**
 * mutate(object, context): what the defaulting webhook answers. It writes nothing into the stored object (the
 * defaults are applied when a NodePool is read, `effectiveNodePool`); it reports each default that applies as a
 * warning, so `kubectl apply` still shows what the service will read.
 */
import { deepCopy } from '../../util/json-copy.js';
import { kindOf } from './object-access.js';
import { defaultNodePool, defaultOVHNodeClass } from './rules/defaults.js';
import type { AdmissionContext, KubeObject, MutationResult } from './types.js';

export function mutate(object: KubeObject, context: AdmissionContext): MutationResult {
  if (context.operation !== 'CREATE' && context.operation !== 'UPDATE') return { warnings: [] };
  switch (kindOf(object)) {
    case 'NodePool':
      return { warnings: defaultNodePool(deepCopy(object), context) };
    case 'OVHNodeClass':
      return { warnings: defaultOVHNodeClass(deepCopy(object), context) };
    default:
      return { warnings: [] };
  }
}
