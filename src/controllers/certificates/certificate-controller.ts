/**
 * The service's own certificates, run on every replica: the CA is made once and kept in a Secret (created if absent;
 * when two replicas race, the loser's create answers 409 and it reads the winner's), the serving certificate is
 * issued from it and renewed before it expires, every named webhook configuration gets the CA as its caBundle, and
 * each new serving certificate is handed to the HTTPS servers. A deleted Secret is made again on the next pass.
 * The decisions are src/domain/certificates/lifecycle.ts; this file reads, writes and waits.
 */
import type { KubernetesObject, V1Secret } from '@kubernetes/client-node';
import {
  caBundlePatch,
  type CertificateDecision,
  decideCertificates,
  type WebhookConfigurationFacts,
} from '../../domain/certificates/lifecycle.js';
import { KubeConflict, KubeNotFound } from '../../kube/errors.js';
import { Resources, type ResourceKind } from '../../kube/resources.js';
import type { Kube } from '../../kube/types.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/logger.js';
import { createCertificateAuthority, loadCertificateAuthority } from '../../util/tls.js';
import { type CertificatePems, certificateSecret, storedCertificates, storedPems } from './stored-certificates.js';

export interface ServiceCertificate {
  certPem: string;
  keyPem: string;
  caPem: string;
}

export interface CertificateControllerOptions {
  kube: Kube;
  clock: Clock;
  logger: Logger;
  secret: { namespace: string; name: string };
  /** The names the serving certificate covers: the Service's, first the one the API server calls. */
  dnsNames: readonly string[];
  caValidityDays: number;
  servingValidityDays: number;
  /** The webhook configurations whose caBundle the service keeps set; no other is read or written. */
  webhookConfigurations: { mutating: readonly string[]; validating: readonly string[] };
  /** How often the Secret and the caBundles are checked besides the renewal dates (a deleted Secret, a caBundle reset). */
  resyncMs: number;
  /** Receives each serving certificate, the first one included. */
  onCertificate(certificate: ServiceCertificate): void;
}

/** Rounds of read-decide-write before a pass gives up: each lost race is followed by a read of the winner's write. */
const MaxRounds = 5;
const FirstRetryMs = 1000;
const MaxRetryMs = 30_000;
const DayMs = 86_400_000;

export class CertificateController {
  private readonly policy;

  constructor(private readonly options: CertificateControllerOptions) {
    this.policy = { servingValidityMs: options.servingValidityDays * DayMs, dnsNames: options.dnsNames };
  }

  /** The first pass, retried until it succeeds: the servers need a certificate before they listen. */
  async prepare(signal?: AbortSignal): Promise<number> {
    for (let delay = FirstRetryMs; ; delay = Math.min(delay * 2, MaxRetryMs)) {
      try {
        return await this.reconcile();
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        this.options.logger.error('making the serving certificate; retrying', { error, retryInMs: delay });
        await this.options.clock.sleep(delay, signal);
      }
    }
  }

  /** Passes until `signal` aborts, each at the next renewal date or resync, whichever comes first. */
  async start(signal: AbortSignal, recheckAt = this.options.clock.now()): Promise<void> {
    const { clock, resyncMs, logger } = this.options;
    let next = recheckAt;
    while (!signal.aborted) {
      const wait = Math.min(resyncMs, Math.max(0, next - clock.now()));
      // An abort ends the sleep with a rejection: the loop is over, not failed.
      const slept = await clock.sleep(wait, signal).then(
        () => true,
        () => false,
      );
      if (!slept) return;
      try {
        next = await this.reconcile();
      } catch (error) {
        logger.error('checking the serving certificate', { error });
        next = clock.now() + resyncMs;
      }
    }
  }

  /** One pass: the Secret as it must be, the servers and the caBundles given its certificates. Returns the next renewal date. */
  async reconcile(): Promise<number> {
    const { pems, recheckAt } = await this.ensureSecret();
    this.options.onCertificate({ certPem: pems.certPem, keyPem: pems.keyPem, caPem: pems.caPem });
    await this.patchBundles(Buffer.from(pems.caPem).toString('base64'));
    return recheckAt;
  }

  private async ensureSecret(): Promise<{ pems: CertificatePems; recheckAt: number }> {
    for (let round = 0; round < MaxRounds; round++) {
      const secret = await this.readSecret();
      const pems = secret && storedPems(secret);
      const decision = decideCertificates(pems && storedCertificates(pems), this.policy, this.options.clock.now());
      if (decision.action === 'keep') return { pems: pems as CertificatePems, recheckAt: decision.recheckAt };
      // A lost race (another replica wrote first, or the Secret went away meanwhile) is settled by reading again.
      await this.write(decision, secret, pems).catch((error: unknown) => {
        if (!(error instanceof KubeConflict) && !(error instanceof KubeNotFound)) throw error;
      });
    }
    throw new Error(`writing Secret ${this.secretName()}: still changing after ${MaxRounds} rounds of read and write`);
  }

  private async readSecret(): Promise<V1Secret | undefined> {
    return this.options.kube.get<V1Secret>(Resources.Secret, this.options.secret).catch((error: unknown) => {
      if (error instanceof KubeNotFound) return undefined;
      throw error;
    });
  }

  private async write(
    decision: Exclude<CertificateDecision, { action: 'keep' }>,
    secret?: V1Secret,
    pems?: CertificatePems,
  ): Promise<void> {
    const { kube, clock, logger, secret: key } = this.options;
    const now = clock.now();
    const ca =
      decision.action === 'issue-serving' && pems
        ? await loadCertificateAuthority(pems.caPem, pems.caKeyPem)
        : await createCertificateAuthority(`${this.options.dnsNames[0] ?? key.name}-ca`, this.options.caValidityDays, now);
    const serving = await ca.issue({ dns: [...this.options.dnsNames] }, this.options.servingValidityDays, now);
    const next = certificateSecret(
      key,
      { caPem: ca.certPem, caKeyPem: ca.keyPem, certPem: serving.certPem, keyPem: serving.keyPem },
      secret,
    );
    if (decision.action === 'create') await kube.create(Resources.Secret, next);
    else await kube.replace(Resources.Secret, next);
    const what = decision.action === 'issue-serving' ? 'renewed the serving certificate' : 'made a new CA and serving certificate';
    logger.info(what, { secret: this.secretName(), ...('reason' in decision ? { reason: decision.reason } : {}) });
  }

  private async patchBundles(caBundle: string): Promise<void> {
    const { mutating, validating } = this.options.webhookConfigurations;
    const targets: [ResourceKind, string][] = [
      ...mutating.map((name): [ResourceKind, string] => [Resources.MutatingWebhookConfiguration, name]),
      ...validating.map((name): [ResourceKind, string] => [Resources.ValidatingWebhookConfiguration, name]),
    ];
    for (const [resource, name] of targets) await this.patchBundle(resource, name, caBundle);
  }

  private async patchBundle(resource: ResourceKind, name: string, caBundle: string): Promise<void> {
    const { kube, logger } = this.options;
    let config: KubernetesObject & Partial<WebhookConfigurationFacts>;
    try {
      config = await kube.get(resource, { name });
    } catch (error) {
      // Not installed (yet): the next pass sets it.
      if (error instanceof KubeNotFound) return logger.warn('webhook configuration not found', { kind: resource.kind, name });
      throw error;
    }
    const webhooks = ((config as { webhooks?: { name: string; clientConfig?: { caBundle?: string } }[] }).webhooks ?? []).map((w) => ({
      name: w.name,
      ...(w.clientConfig?.caBundle ? { caBundle: w.clientConfig.caBundle } : {}),
    }));
    const patch = caBundlePatch({ webhooks }, caBundle);
    if (patch.length === 0) return;
    await kube.patch(resource, { name }, { type: 'json', body: patch });
    logger.info('set the caBundle of the webhook configuration', { kind: resource.kind, name });
  }

  private secretName(): string {
    return `${this.options.secret.namespace}/${this.options.secret.name}`;
  }
}
