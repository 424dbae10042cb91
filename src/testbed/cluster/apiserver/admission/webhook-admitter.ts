/**
 * Admission like kube-apiserver's webhook plugins: matching Mutating webhooks run first (configurations in
 * name order), their JSON patches applied in turn, then the Validating ones. Denials and failures are
 * reported with kube-apiserver's exact wording; failurePolicy decides whether a failed call rejects.
 */
import { randomUUID } from 'node:crypto';
import { applyJsonPatch, parseJsonPatch } from '../../../../util/json-patch.js';
import { ApiError, type StatusDetails, internalError } from '../errors.js';
import { type KubeObject, asJson } from '../kube-object.js';
import { type ObjectStore } from '../object-store.js';
import { type Labels } from '../label-selector.js';
import { type AdmissionAttributes, type AdmissionResult, type Admitter } from './admission-types.js';
import { type ServiceResolver, type Webhook, type WebhookConfiguration } from './webhook-configuration.js';
import { webhookMatches } from './webhook-matcher.js';
import { WebhookCallError, postAdmissionReview } from './webhook-client.js';
import { buildAdmissionReview } from './admission-review.js';
import { MatchConditions } from './match-conditions.js';

interface ReviewResponse {
  uid?: string;
  allowed?: boolean;
  status?: { code?: number; message?: string; reason?: string; status?: string; details?: StatusDetails };
  patch?: string;
  patchType?: string;
  warnings?: string[];
}

type Phase = 'mutating' | 'validating';

export class WebhookAdmitter implements Admitter {
  private readonly matchConditions = new MatchConditions();

  constructor(
    private readonly store: ObjectStore,
    private readonly resolveService: ServiceResolver,
    private readonly verifyServiceNames: boolean,
  ) {}

  async admit(attrs: AdmissionAttributes, phase: Phase): Promise<AdmissionResult> {
    const webhooks = this.webhooksFor(phase);
    if (webhooks.length === 0) return { object: attrs.object, warnings: [] };
    const namespaceLabels = this.namespaceLabelsFor(attrs);
    let object = attrs.object;
    const warnings: string[] = [];
    for (const webhook of webhooks) {
      const current = { ...attrs, object };
      if (!webhookMatches(webhook, current, { namespaceLabels })) continue;
      const matched = this.matchConditions.evaluate(webhook, current);
      if (matched.kind === 'skip') continue;
      if (matched.kind === 'error') {
        if ((webhook.failurePolicy ?? 'Fail') === 'Ignore') continue;
        throw internalError(`failed calling webhook "${webhook.name}": failed evaluating match conditions: ${matched.message}`);
      }
      const outcome = await this.call(webhook, current, phase);
      warnings.push(...outcome.warnings);
      if (outcome.object !== undefined) object = outcome.object;
    }
    return { object, warnings };
  }

  private webhooksFor(phase: Phase): Webhook[] {
    const storageKey = `admissionregistration.k8s.io/${phase === 'mutating' ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations'}`;
    const configs = [...this.store.values(storageKey)] as unknown as WebhookConfiguration[];
    configs.sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
    return configs.flatMap((c) => c.webhooks ?? []);
  }

  /** null means "no namespace selector applies" (cluster-scoped objects other than Namespace). */
  private namespaceLabelsFor(attrs: AdmissionAttributes): Labels | null {
    if (attrs.type.group === '' && attrs.type.plural === 'namespaces') return (attrs.object ?? attrs.oldObject)?.metadata.labels ?? {};
    if (!attrs.type.namespaced) return null;
    return this.store.get('/namespaces', attrs.namespace)?.metadata.labels ?? {};
  }

  private urlFor(webhook: Webhook): string {
    const { url, service } = webhook.clientConfig;
    if (url) return url;
    if (service) {
      const resolved = this.resolveService(service);
      if (resolved) return resolved;
      throw new WebhookCallError(`service "${service.name}" in namespace "${service.namespace}" has no endpoint on this test bed`);
    }
    throw new WebhookCallError('clientConfig has neither url nor service');
  }

  /** kube-apiserver dials `<name>.<namespace>.svc` for a service reference and checks the certificate for that name. */
  private serverNameOf(webhook: Webhook): { serverName?: string } {
    const service = webhook.clientConfig.service;
    return this.verifyServiceNames && service && !webhook.clientConfig.url
      ? { serverName: `${service.name}.${service.namespace}.svc` }
      : {};
  }

  private async call(
    webhook: Webhook,
    attrs: AdmissionAttributes,
    phase: Phase,
  ): Promise<{ object?: KubeObject | null; warnings: string[] }> {
    const sideEffects = webhook.sideEffects ?? 'None';
    if (attrs.dryRun && sideEffects !== 'None' && sideEffects !== 'NoneOnDryRun') {
      throw new ApiError(400, 'BadRequest', `admission webhook "${webhook.name}" does not support dry run`);
    }
    const uid = randomUUID();
    let response: ReviewResponse;
    try {
      const timeoutSeconds = webhook.timeoutSeconds ?? 10;
      const reply = await postAdmissionReview({
        url: this.urlFor(webhook),
        caBundle: webhook.clientConfig.caBundle,
        ...this.serverNameOf(webhook),
        timeoutSeconds,
        body: buildAdmissionReview(uid, attrs),
      });
      response = verifyResponse(reply, uid, phase);
    } catch (err) {
      if ((webhook.failurePolicy ?? 'Fail') === 'Ignore') return { warnings: [] };
      const reason = err instanceof WebhookCallError ? `failed to call webhook: ${err.message}` : (err as Error).message;
      throw internalError(`failed calling webhook "${webhook.name}": ${reason}`);
    }
    const warnings = response.warnings ?? [];
    if (!response.allowed) throw denial(webhook.name, response.status, warnings);
    if (phase === 'mutating' && response.patch && attrs.object) {
      return { object: applyWebhookPatch(webhook.name, attrs.object, response.patch), warnings };
    }
    return { warnings };
  }
}

function verifyResponse(reply: unknown, uid: string, phase: Phase): ReviewResponse {
  const review = reply as { apiVersion?: string; kind?: string; response?: ReviewResponse } | null;
  if (!review || review.apiVersion !== 'admission.k8s.io/v1' || review.kind !== 'AdmissionReview') {
    throw new WebhookCallError(
      `expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${review?.apiVersion ?? ''}, Kind=${review?.kind ?? ''}`,
    );
  }
  const response = review.response;
  if (!response) throw new WebhookCallError('webhook response was absent');
  if (response.uid !== uid) throw new WebhookCallError(`expected response.uid="${uid}", got "${response.uid ?? ''}"`);
  if (phase === 'validating' && (response.patch || response.patchType)) {
    throw new WebhookCallError('validating webhooks may not return patches');
  }
  if (phase === 'mutating' && Boolean(response.patch) !== Boolean(response.patchType)) {
    throw new WebhookCallError('webhook returned patch without patchType or patchType without patch');
  }
  if (response.patchType && response.patchType !== 'JSONPatch')
    throw new WebhookCallError(`webhook returned invalid patchType "${response.patchType}"`);
  return response;
}

/** kube-apiserver's ToStatusErr: code ≥ 400, Failure status, reason passed through, fixed message prefix. */
function denial(name: string, status: ReviewResponse['status'], warnings: string[]): ApiError {
  const deniedBy = `admission webhook "${name}" denied the request`;
  const code = status?.code !== undefined && status.code >= 400 ? status.code : 400;
  const message = status?.message
    ? `${deniedBy}: ${status.message}`
    : status?.reason
      ? `${deniedBy}: ${status.reason}`
      : `${deniedBy} without explanation`;
  const error = new ApiError(code, status?.reason ?? '', message, status?.details);
  error.warnings.push(...warnings);
  return error;
}

function applyWebhookPatch(name: string, object: KubeObject, patchBase64: string): KubeObject {
  try {
    const ops = parseJsonPatch(JSON.parse(Buffer.from(patchBase64, 'base64').toString('utf8')));
    return applyJsonPatch(asJson(object), ops) as unknown as KubeObject;
  } catch (err) {
    throw internalError(`failed calling webhook "${name}": applying the webhook's patch: ${(err as Error).message}`);
  }
}
