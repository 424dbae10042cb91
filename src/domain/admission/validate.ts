/**
 * validate(object, context): the API server's verdict (schema + CEL, from src/apis) followed by
 * karpenter-eu's own rules for the kind. Kinds it does not own are allowed untouched.
 */
import { effectiveNodePoolAndScope } from './rules/defaults.js';
import { applyDefaults, validateObject } from '../../apis/validation/validate-object.js';
import { kindOf } from './object-access.js';
import type { PoolScope } from './pool-scope.js';
import { checkAntiAffinity } from './rules/anti-affinity.js';
import { checkNodeClassBilling, checkPoolBilling } from './rules/billing.js';
import { checkDisruption } from './rules/disruption.js';
import { checkGpus } from './rules/gpu.js';
import { checkInstanceTypes } from './rules/instance-types.js';
import { checkLimits } from './rules/limits.js';
import { checkNodeClass } from './rules/nodeclasses.js';
import { checkNodeOverlay, nodeOverlayPriceViolations } from './rules/node-overlay.js';
import { checkPod } from './rules/pod.js';
import { legacyPodSelectorViolations } from './rules/pod-selectors.js';
import { checkNodeClassRef } from './rules/references.js';
import { checkStaticNodePool } from './rules/static-nodepool.js';
import { checkZones } from './rules/zones.js';
import type { AdmissionContext, KubeObject, RuleFindings, ValidationResult, Violation } from './types.js';

export const OwnedKinds = ['NodePool', 'NodeClaim', 'NodeOverlay', 'OVHNodeClass', 'ScalewayNodeClass', 'OutscaleNodeClass'] as const;

export function isOwnedKind(kind: string): boolean {
  return (OwnedKinds as readonly string[]).includes(kind);
}

function nodePoolFindings(pool: KubeObject, scope: PoolScope, context: AdmissionContext): RuleFindings[] {
  return [
    checkStaticNodePool(pool),
    checkNodeClassRef(pool, context),
    checkLimits(pool, scope),
    checkZones(pool, scope),
    checkInstanceTypes(pool, scope),
    checkGpus(pool, scope),
    checkPoolBilling(pool, scope),
    checkAntiAffinity(pool, scope),
    checkDisruption(pool),
  ];
}

function ruleFindings(object: KubeObject, context: AdmissionContext): RuleFindings[] {
  switch (kindOf(object)) {
    case 'NodePool': {
      // The rules judge the pool as the service will read it (the read-time defaults applied).
      const effective = effectiveNodePoolAndScope(object, context);
      return nodePoolFindings(effective.pool, effective.scope, context);
    }
    case 'NodeClaim':
      return [checkNodeClassRef(object, context)];
    case 'NodeOverlay':
      return [checkNodeOverlay(object, context)];
    case 'OVHNodeClass':
      return [checkNodeClass(object, context), checkNodeClassBilling(object, context)];
    case 'ScalewayNodeClass':
    case 'OutscaleNodeClass':
      return [checkNodeClass(object, context)];
    default:
      return [];
  }
}

export function verdict(violations: Violation[], warnings: string[]): ValidationResult {
  const message = violations.map((v) => `${v.path}: ${v.message}`).join('; ');
  return { allowed: violations.length === 0, message, warnings, violations };
}

export function validate(object: KubeObject, context: AdmissionContext): ValidationResult {
  const kind = kindOf(object);
  // Pods are refused only for a selector no node can ever match (the line to write instead beats Pending
  // forever); otherwise warned about. The pod webhook fails open: when the service is down pods are admitted.
  if (kind === 'Pod') return verdict(legacyPodSelectorViolations(object, context.defaults.gpuTaint), checkPod(object, context).warnings);
  if (!isOwnedKind(kind) || context.operation === 'DELETE' || context.operation === 'CONNECT') return verdict([], []);
  // Said with the forms accepted rather than as the schema's regular expression.
  const prices = kind === 'NodeOverlay' ? nodeOverlayPriceViolations(object) : [];
  if (prices.length > 0) return verdict(prices, []);
  const schemaErrors = validateObject(applyDefaults(object), context.oldObject ? { oldObject: applyDefaults(context.oldObject) } : {});
  if (schemaErrors.length > 0) {
    return verdict(
      schemaErrors.map((e) => ({ path: e.path, message: e.message })),
      [],
    );
  }
  const findings = ruleFindings(object, context);
  return verdict(
    findings.flatMap((f) => f.violations),
    findings.flatMap((f) => f.warnings),
  );
}
