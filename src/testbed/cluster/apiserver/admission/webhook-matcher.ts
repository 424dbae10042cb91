/** Which webhooks a request reaches: rules (operations, groups, versions, resources, scope) and selectors. */
import { type Labels, matchesSelectorObject } from '../label-selector.js';
import { type AdmissionAttributes } from './admission-types.js';
import { type Webhook, type WebhookRule } from './webhook-configuration.js';

const webhookConfigKinds = new Set(['validatingwebhookconfigurations', 'mutatingwebhookconfigurations']);

function listMatches(list: string[] | undefined, value: string): boolean {
  return (list ?? []).some((item) => item === '*' || item === value);
}

/** `*` = every resource but no subresource, `pods/*`, `*\/status`, `*\/*` as documented upstream. */
function resourceMatches(patterns: string[] | undefined, plural: string, subResource: string): boolean {
  return (patterns ?? []).some((pattern) => {
    const [res, sub] = pattern.split('/', 2);
    if (sub === undefined) return subResource === '' && (res === '*' || res === plural);
    const resOk = res === '*' || res === plural;
    const subOk = sub === '*' ? true : sub === subResource;
    return resOk && subOk && (sub === '*' || subResource !== '');
  });
}

function ruleMatches(rule: WebhookRule, attrs: AdmissionAttributes): boolean {
  const scope = rule.scope ?? '*';
  if (scope === 'Cluster' && attrs.type.namespaced) return false;
  if (scope === 'Namespaced' && !attrs.type.namespaced) return false;
  return (
    listMatches(rule.operations, attrs.operation) &&
    listMatches(rule.apiGroups, attrs.type.group) &&
    listMatches(rule.apiVersions, attrs.type.version) &&
    resourceMatches(rule.resources, attrs.type.plural, attrs.subResource)
  );
}

export interface MatchContext {
  /** Labels of the request's namespace (or of the Namespace object itself). */
  namespaceLabels: Labels | null;
}

export function webhookMatches(webhook: Webhook, attrs: AdmissionAttributes, ctx: MatchContext): boolean {
  if (webhookConfigKinds.has(attrs.type.plural) && attrs.type.group === 'admissionregistration.k8s.io') return false;
  if (!(webhook.rules ?? []).some((rule) => ruleMatches(rule, attrs))) return false;
  if (ctx.namespaceLabels !== null && !matchesSelectorObject(ctx.namespaceLabels, webhook.namespaceSelector)) return false;
  const objectLabels = [attrs.object, attrs.oldObject].filter((o) => o !== null).map((o) => o?.metadata?.labels);
  if (webhook.objectSelector && !objectLabels.some((labels) => matchesSelectorObject(labels, webhook.objectSelector))) return false;
  return true;
}
