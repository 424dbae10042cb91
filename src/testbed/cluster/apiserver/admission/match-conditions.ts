/**
 * A webhook's matchConditions (admissionregistration.k8s.io/v1, GA in Kubernetes 1.30), evaluated as
 * kube-apiserver does once the rules and selectors matched: CEL expressions over `object`, `oldObject` (null when
 * absent) and `request` (the AdmissionRequest sent to the webhook). Any condition false: the webhook is skipped,
 * whatever errors others had. Otherwise any error: the call fails, and its failurePolicy decides. All true: called.
 */
import { CelRuleCompiler } from '../../../../apis/validation/cel-environment.js';
import { type KubeObject } from '../kube-object.js';
import { buildAdmissionReview } from './admission-review.js';
import { type AdmissionAttributes } from './admission-types.js';
import { type Webhook } from './webhook-configuration.js';

export type MatchOutcome = { kind: 'call' } | { kind: 'skip' } | { kind: 'error'; message: string };

/** Unstructured JSON as kube-apiserver hands it to CEL: whole numbers are int64, the others double. */
function toCel(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(toCel);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toCel(v)]));
  return value;
}

export class MatchConditions {
  private readonly compiler = new CelRuleCompiler();

  evaluate(webhook: Webhook, attrs: AdmissionAttributes): MatchOutcome {
    const conditions = webhook.matchConditions ?? [];
    if (conditions.length === 0) return { kind: 'call' };
    // The objects are variables of their own; `request` carries the rest of the AdmissionRequest.
    const {
      object: _object,
      oldObject: _oldObject,
      ...request
    } = (buildAdmissionReview('', attrs) as { request: Record<string, unknown> }).request;
    const context = {
      object: toCel(attrs.object as KubeObject | null),
      oldObject: toCel(attrs.oldObject as KubeObject | null),
      request: toCel(request),
    };
    const errors: string[] = [];
    for (const condition of conditions) {
      try {
        const result = this.compiler.compile(condition.expression)(context);
        if (result === false) return { kind: 'skip' };
        if (result !== true) errors.push(`expression '${condition.name}' resulted in error: no such overload (it must evaluate to a bool)`);
      } catch (error) {
        errors.push(`expression '${condition.name}' resulted in error: ${(error as Error).message.split('\n')[0] ?? ''}`);
      }
    }
    return errors.length === 0 ? { kind: 'call' } : { kind: 'error', message: errors.join(', ') };
  }
}
