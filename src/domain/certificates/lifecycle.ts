/**
 * The service's own certificates: when the CA kept in the Secret must be made or replaced, when the serving
 * certificate issued from it is renewed, and which webhook caBundles must be set. Plain facts in (read from the
 * Secret and the webhook configurations by the controller), a decision out; the clock's time is passed in.
 */
import type { JsonPatchOperation } from '../../util/json-patch.js';

/** The names the API server and a scheduler may call `<service>.<namespace>` by; the one the API server dials first. */
export function serviceDnsNames(service: string, namespace: string): string[] {
  return [`${service}.${namespace}.svc`, service, `${service}.${namespace}`, `${service}.${namespace}.svc.cluster.local`];
}

/** A certificate's validity, epoch milliseconds. */
export interface Validity {
  notBefore: number;
  notAfter: number;
}

export interface CaFacts extends Validity {
  /** Basic constraints say CA:TRUE. */
  isCa: boolean;
  /** The stored key is the certificate's. */
  keyMatches: boolean;
}

export interface ServingFacts extends Validity {
  keyMatches: boolean;
  /** Signed by the stored CA. */
  signedByCa: boolean;
  /** Its DNS subject alternative names. */
  dnsNames: readonly string[];
}

/** What the Secret holds; a field is absent when missing or unreadable. */
export interface StoredCertificates {
  ca?: CaFacts;
  serving?: ServingFacts;
}

export interface CertificatePolicy {
  /** Lifetime of each serving certificate. */
  servingValidityMs: number;
  /** The names the serving certificate must cover: the Service's, as the API server and the scheduler call it. */
  dnsNames: readonly string[];
}

export type CertificateDecision =
  /** No Secret: make a CA and a serving certificate and create it. */
  | { action: 'create' }
  /** The Secret's CA cannot sign (or is about to expire): a new CA and serving certificate replace it. */
  | { action: 'replace-ca'; reason: string }
  /** The CA stays; a new serving certificate is issued from it. */
  | { action: 'issue-serving'; reason: string }
  /** Nothing to do until `recheckAt` (epoch ms). */
  | { action: 'keep'; recheckAt: number };

/** The serving certificate is renewed when a third of its lifetime is left (cert-manager's default). */
export function servingRenewalAt(serving: Validity): number {
  return serving.notAfter - (serving.notAfter - serving.notBefore) / 3;
}

/**
 * The CA is kept as long as a whole serving certificate still fits in what is left of it: replacing it changes
 * the CA every caller pins, so it happens only when it must.
 */
export function caReplacementAt(ca: Validity, policy: CertificatePolicy): number {
  return ca.notAfter - policy.servingValidityMs;
}

function caProblem(ca: CaFacts | undefined, policy: CertificatePolicy, now: number): string | undefined {
  if (!ca) return 'the Secret holds no readable CA certificate and key (ca.crt, ca.key)';
  if (!ca.isCa) return 'ca.crt is not a CA certificate';
  if (!ca.keyMatches) return 'ca.key is not the key of ca.crt';
  if (now < ca.notBefore) return `the CA is not valid before ${new Date(ca.notBefore).toISOString()}`;
  if (now >= caReplacementAt(ca, policy)) return `the CA expires at ${new Date(ca.notAfter).toISOString()}`;
  return undefined;
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  const wanted = new Set(b);
  return a.length === wanted.size && a.every((name) => wanted.has(name));
}

function servingProblem(serving: ServingFacts | undefined, policy: CertificatePolicy, now: number): string | undefined {
  if (!serving) return 'the Secret holds no readable serving certificate and key (tls.crt, tls.key)';
  if (!serving.keyMatches) return 'tls.key is not the key of tls.crt';
  if (!serving.signedByCa) return 'tls.crt is not signed by the CA';
  if (!sameNames(serving.dnsNames, policy.dnsNames))
    return `tls.crt names ${serving.dnsNames.join(', ')}; the Service is ${policy.dnsNames.join(', ')}`;
  if (now < serving.notBefore) return `tls.crt is not valid before ${new Date(serving.notBefore).toISOString()}`;
  if (now >= servingRenewalAt(serving)) return `tls.crt expires at ${new Date(serving.notAfter).toISOString()}`;
  return undefined;
}

/** What to do with the Secret as read (`undefined`: it does not exist). */
export function decideCertificates(stored: StoredCertificates | undefined, policy: CertificatePolicy, now: number): CertificateDecision {
  if (!stored) return { action: 'create' };
  const ca = caProblem(stored.ca, policy, now);
  if (ca) return { action: 'replace-ca', reason: ca };
  const serving = servingProblem(stored.serving, policy, now);
  if (serving) return { action: 'issue-serving', reason: serving };
  const { ca: caFacts, serving: servingFacts } = stored as Required<StoredCertificates>;
  return { action: 'keep', recheckAt: Math.min(servingRenewalAt(servingFacts), caReplacementAt(caFacts, policy)) };
}

/** The webhooks of one Mutating- or ValidatingWebhookConfiguration, in order. */
export interface WebhookConfigurationFacts {
  webhooks: readonly { name: string; caBundle?: string }[];
}

/**
 * The JSON patch that sets `caBundle` on every webhook of the configuration that lacks it or has another; empty
 * when all match. Each change is guarded by a `test` of the webhook's name, so a configuration reordered since it
 * was read is refused rather than patched at the wrong index.
 */
export function caBundlePatch(config: WebhookConfigurationFacts, caBundle: string): JsonPatchOperation[] {
  return config.webhooks.flatMap((webhook, i) =>
    webhook.caBundle === caBundle
      ? []
      : [
          { op: 'test' as const, path: `/webhooks/${i}/name`, value: webhook.name },
          { op: 'add' as const, path: `/webhooks/${i}/clientConfig/caBundle`, value: caBundle },
        ],
  );
}
