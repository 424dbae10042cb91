/**
 * The options of the service's own certificates (src/controllers/certificates): `--cert-secret` turns them on,
 * `--cert-service` names the Service the certificate is for, `--cert-ca-validity` how long the CA lives, and
 * `--cert-mutating-webhooks` / `--cert-validating-webhooks` the only webhook configurations whose caBundle it sets.
 */
import { serviceDnsNames } from '../domain/certificates/lifecycle.js';
import { InvalidOptionError, parseName, parsePositiveDurationMs } from './option-values.js';

interface RawOption {
  value: string;
  source: string;
}

export interface CertificateOptions {
  /** The Secret in the service's namespace holding the CA and the serving certificate. */
  secret: { namespace: string; name: string };
  dnsNames: string[];
  caValidityDays: number;
  webhookConfigurations: { mutating: string[]; validating: string[] };
}

/** A serving certificate lives 90 days and is renewed with 30 left, so a renewal never waits on anyone's reaction. */
export const ServingValidityDays = 90;

const DayMs = 86_400_000;

function names(raw: RawOption | undefined): string[] {
  return (raw?.value ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
    .map((name) => parseName((raw as RawOption).source, name));
}

export function parseCertificateOptions(
  get: (flag: string) => RawOption | undefined,
  namespace: string,
  fileOptions: readonly (RawOption | undefined)[],
): CertificateOptions | undefined {
  const secret = get('cert-secret');
  if (!secret) return undefined;
  const files = fileOptions.find((raw) => raw !== undefined && !raw.source.endsWith('(default)'));
  if (files)
    throw new InvalidOptionError(
      files.source,
      files.value,
      `no certificate file together with ${secret.source}: the service makes its own`,
    );
  const service = get('cert-service');
  if (!service)
    throw new InvalidOptionError(
      '--cert-service / CERT_SERVICE',
      '',
      `the Service name the certificate is for, required with ${secret.source}`,
    );
  const validity = get('cert-ca-validity') as RawOption;
  const caValidityMs = parsePositiveDurationMs(validity.source, validity.value);
  if (caValidityMs < 2 * ServingValidityDays * DayMs)
    throw new InvalidOptionError(
      validity.source,
      validity.value,
      `a duration of at least ${2 * ServingValidityDays * 24}h (two serving certificate lifetimes)`,
    );
  return {
    secret: { namespace, name: parseName(secret.source, secret.value) },
    dnsNames: serviceDnsNames(parseName(service.source, service.value), namespace),
    caValidityDays: caValidityMs / DayMs,
    webhookConfigurations: { mutating: names(get('cert-mutating-webhooks')), validating: names(get('cert-validating-webhooks')) },
  };
}
