/**
 * Webhook serving certificate for `webhook.cert.mode: provided` (or a manual install): a CA and a certificate
 * for the chart Service's DNS names, made in-process (src/util/tls.ts, ECDSA P-256, no openssl needed).
 *   npx tsx scripts/chart-certs.ts [--service karpenter-eu] [--namespace karpenter] [--out certs/out] [--days 365]
 * Writes ca.crt, ca.key, tls.crt, tls.key (keys mode 0600), prints the caBundle and the commands to use them.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serviceDnsNames } from '../src/domain/certificates/lifecycle.js';
import { createCertificateAuthority } from '../src/util/tls.js';

export interface WebhookCertificates {
  dnsNames: string[];
  caPem: string;
  caKeyPem: string;
  certPem: string;
  keyPem: string;
  /** What goes into the webhook configurations' clientConfig.caBundle (and webhook.cert.provided.caBundle). */
  caBundle: string;
}

export class CertificateArgumentError extends Error {}

export { serviceDnsNames };

export async function generateWebhookCertificates(service: string, namespace: string, validDays: number): Promise<WebhookCertificates> {
  const dnsNames = serviceDnsNames(service, namespace);
  const ca = await createCertificateAuthority(`${service}-webhook-ca`, validDays);
  const serving = await ca.issue({ dns: dnsNames }, validDays);
  return {
    dnsNames,
    caPem: ca.certPem,
    caKeyPem: ca.keyPem,
    certPem: serving.certPem,
    keyPem: serving.keyPem,
    caBundle: Buffer.from(ca.certPem).toString('base64'),
  };
}

/** Writes the four PEM files; private keys readable by the owner only. */
export function writeCertificateFiles(dir: string, certs: WebhookCertificates): string[] {
  mkdirSync(dir, { recursive: true });
  const files: Array<[string, string, number]> = [
    ['ca.crt', certs.caPem, 0o644],
    ['ca.key', certs.caKeyPem, 0o600],
    ['tls.crt', certs.certPem, 0o644],
    ['tls.key', certs.keyPem, 0o600],
  ];
  return files.map(([name, pem, mode]) => {
    const path = join(dir, name);
    writeFileSync(path, pem, { mode });
    chmodSync(path, mode);
    return path;
  });
}

const dnsLabel = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

export function parseCertificateArguments(
  argv: readonly string[],
  defaultOut: string,
): { service: string; namespace: string; out: string; days: number } {
  const options = { service: 'karpenter-eu', namespace: 'karpenter', out: defaultOut, days: '365' };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i] as string, argv[i + 1]];
    const key = flag.replace(/^--/, '') as keyof typeof options;
    if (!flag.startsWith('--') || !(key in options))
      throw new CertificateArgumentError(
        `parsing arguments: unknown flag ${JSON.stringify(flag)}; accepted: --service, --namespace, --out, --days`,
      );
    if (value === undefined) throw new CertificateArgumentError(`parsing arguments: ${flag} needs a value`);
    options[key] = value;
  }
  for (const key of ['service', 'namespace'] as const) {
    if (!dnsLabel.test(options[key]))
      throw new CertificateArgumentError(
        `parsing arguments: --${key} is ${JSON.stringify(options[key])}; accepted: a DNS label (a-z, 0-9, "-", at most 63 characters)`,
      );
  }
  const days = Number(options.days);
  if (!Number.isInteger(days) || days < 1)
    throw new CertificateArgumentError(
      `parsing arguments: --days is ${JSON.stringify(options.days)}; accepted: a whole number of days, at least 1`,
    );
  return { ...options, days };
}

async function main(argv: string[]): Promise<number> {
  const defaultOut = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'certs', 'out');
  const { service, namespace, out, days } = parseCertificateArguments(argv, defaultOut);
  const certs = await generateWebhookCertificates(service, namespace, days);
  const files = writeCertificateFiles(out, certs);
  // The chart's own name for it, with ca.crt too: the second scheduler of manifests/scheduler/ reads the CA there.
  const secret = `${service}-cert`;
  process.stdout.write(
    [
      `wrote ${files.join(', ')} for ${certs.dnsNames.join(', ')} (valid ${days} days)`,
      `secret:   kubectl -n ${namespace} create secret generic ${secret} --type=kubernetes.io/tls --from-file=tls.crt=${join(out, 'tls.crt')} --from-file=tls.key=${join(out, 'tls.key')} --from-file=ca.crt=${join(out, 'ca.crt')}`,
      `chart:    --set webhook.cert.mode=provided --set webhook.cert.provided.secretName=${secret} --set webhook.cert.provided.caBundle=<caBundle>`,
      `caBundle: ${certs.caBundle}`,
      '',
    ].join('\n'),
  );
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = error instanceof CertificateArgumentError ? 2 : 1;
    },
  );
}
