/**
 * The Secret the service keeps its certificates in (type kubernetes.io/tls): `ca.crt` and `ca.key`, the CA made once;
 * `tls.crt` and `tls.key`, the serving certificate issued from it. Reads it into the plain facts the decision
 * needs, and builds it back.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import type { V1Secret } from '@kubernetes/client-node';
import type { CaFacts, ServingFacts, StoredCertificates } from '../../domain/certificates/lifecycle.js';

export interface CertificatePems {
  caPem: string;
  caKeyPem: string;
  certPem: string;
  keyPem: string;
}

const decode = (value: string | undefined): string => (value ? Buffer.from(value, 'base64').toString('utf8') : '');

function certificate(pem: string): X509Certificate | undefined {
  try {
    return pem ? new X509Certificate(pem) : undefined;
  } catch {
    return undefined;
  }
}

function keyMatches(cert: X509Certificate, keyPem: string): boolean {
  try {
    return cert.checkPrivateKey(createPrivateKey(keyPem));
  } catch {
    return false;
  }
}

const validity = (cert: X509Certificate): { notBefore: number; notAfter: number } => ({
  notBefore: Date.parse(cert.validFrom),
  notAfter: Date.parse(cert.validTo),
});

/** `DNS:a, DNS:b, IP Address:…` → the DNS names. */
function dnsNames(cert: X509Certificate): string[] {
  return (cert.subjectAltName ?? '')
    .split(', ')
    .filter((entry) => entry.startsWith('DNS:'))
    .map((entry) => entry.slice(4));
}

function servingFacts(cert: X509Certificate, keyPem: string, ca: X509Certificate | undefined): ServingFacts {
  return {
    ...validity(cert),
    keyMatches: keyMatches(cert, keyPem),
    signedByCa: ca !== undefined && cert.checkIssued(ca) && cert.verify(ca.publicKey),
    dnsNames: dnsNames(cert),
  };
}

export function storedPems(secret: V1Secret): CertificatePems {
  const data = secret.data ?? {};
  return {
    caPem: decode(data['ca.crt']),
    caKeyPem: decode(data['ca.key']),
    certPem: decode(data['tls.crt']),
    keyPem: decode(data['tls.key']),
  };
}

/** What the Secret holds, as facts; an unreadable certificate or key counts as missing. */
export function storedCertificates(pems: CertificatePems): StoredCertificates {
  const ca = certificate(pems.caPem);
  const serving = certificate(pems.certPem);
  const caFacts: CaFacts | undefined = ca && { ...validity(ca), isCa: ca.ca, keyMatches: keyMatches(ca, pems.caKeyPem) };
  return {
    ...(caFacts ? { ca: caFacts } : {}),
    ...(serving ? { serving: servingFacts(serving, pems.keyPem, ca) } : {}),
  };
}

/** The Secret to create, or to replace `current` with (its resourceVersion makes the update conditional). */
export function certificateSecret(key: { namespace: string; name: string }, pems: CertificatePems, current?: V1Secret): V1Secret {
  const encode = (pem: string): string => Buffer.from(pem).toString('base64');
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { ...current?.metadata, name: key.name, namespace: key.namespace },
    type: 'kubernetes.io/tls',
    data: {
      ...current?.data,
      'ca.crt': encode(pems.caPem),
      'ca.key': encode(pems.caKeyPem),
      'tls.crt': encode(pems.certPem),
      'tls.key': encode(pems.keyPem),
    },
  };
}
