/**
 * NodeOverlay: a price change that cannot be read is refused with what is accepted, and an overlay that would
 * conflict with a stored one of the same weight (both pricing one offering, or both setting one resource of one
 * instance type of a NodePool) is refused naming both and the fix, instead of being stored and never applied.
 */
import type { NodeOverlayLike } from '../../nodeoverlay/apply.js';
import { type OverlayTarget, overlayTargets, resolveOverlays } from '../../nodeoverlay/apply.js';
import { conflictMessage } from '../../nodeoverlay/conflict-message.js';
import { priceAdjustmentProblem, priceProblem } from '../../nodeoverlay/price.js';
import { asRecord, asString, field, kindOf, nameOf } from '../object-access.js';
import { resolvePoolScope } from '../pool-scope.js';
import { type AdmissionContext, emptyFindings, type KubeObject, type RuleFindings, type Violation } from '../types.js';

/** Price fields read another way than the schema's pattern says, with the forms accepted. */
export function nodeOverlayPriceViolations(overlay: KubeObject): Violation[] {
  const violations: Violation[] = [];
  const adjustment = field(overlay, 'spec', 'priceAdjustment');
  const adjustmentProblem = typeof adjustment === 'string' ? priceAdjustmentProblem(adjustment) : undefined;
  if (adjustmentProblem) violations.push({ path: 'spec.priceAdjustment', message: `Invalid value: ${adjustmentProblem}` });
  const price = field(overlay, 'spec', 'price');
  const problem = typeof price === 'string' ? priceProblem(price) : undefined;
  if (problem) violations.push({ path: 'spec.price', message: `Invalid value: ${problem}` });
  return violations;
}

/** Every instance type of every NodePool of the context, as the offerings overlays select on. */
function clusterTargets(context: AdmissionContext): OverlayTarget[] {
  return context.nodePools.flatMap((pool) => {
    const labels = asRecord(field(pool, 'spec', 'template', 'metadata', 'labels')) as Record<string, string> | undefined;
    return overlayTargets(resolvePoolScope(pool, context).instanceTypes, { name: nameOf(pool), ...(labels ? { labels } : {}) });
  });
}

export function checkNodeOverlay(overlay: KubeObject, context: AdmissionContext): RuleFindings {
  const findings = emptyFindings();
  const name = nameOf(overlay);
  const others = (context.nodeOverlays ?? []).filter((o) => kindOf(o) === 'NodeOverlay' && nameOf(o) !== name);
  if (others.length === 0 || context.nodePools.length === 0) return findings;
  const incoming = overlay as unknown as NodeOverlayLike;
  const resolution = resolveOverlays([...(others as unknown as NodeOverlayLike[]), incoming], clusterTargets(context));
  const conflict = resolution.conflicts.find((c) => c.overlay === name || c.with === name);
  if (conflict) {
    const path =
      conflict.field === 'price' ? (asString(field(overlay, 'spec', 'price')) ? 'spec.price' : 'spec.priceAdjustment') : 'spec.capacity';
    findings.violations.push({ path, message: `Forbidden: ${conflictMessage(conflict)}` });
  }
  return findings;
}
