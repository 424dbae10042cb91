/**
 * Certificate authority and serving certificates made in-process (ECDSA P-256, fast to generate).
 * Used by the service's own certificates (src/controllers/certificates), `certs/`, and the loopback test bed
 * (the OVH emulator must speak HTTPS because the `ovh` client cannot speak plain HTTP).
 */
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

type ProviderCrypto = Parameters<typeof x509.cryptoProvider.set>[0];
type KeyPair = webcrypto.CryptoKeyPair;

x509.cryptoProvider.set(webcrypto as unknown as ProviderCrypto);

const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

export interface CertificateAuthority {
  certPem: string;
  keyPem: string;
  /** Issues a serving certificate for the given DNS names and IP addresses, valid from `now` (default: now). */
  issue(subjectAltNames: { dns?: string[]; ips?: string[] }, validDays?: number, now?: number): Promise<ServingCertificate>;
}

export interface ServingCertificate {
  certPem: string;
  keyPem: string;
  caPem: string;
}

async function exportKeyPem(key: webcrypto.CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

function serial(): string {
  return Buffer.from(webcrypto.getRandomValues(new Uint8Array(16)))
    .toString('hex')
    .replace(/^[89a-f]/, '1');
}

const DayMs = 86_400_000;
/** notBefore is set this far back, so a peer whose clock is a little behind still accepts a new certificate. */
const BackdateMs = 60_000;

export async function createCertificateAuthority(
  commonName = 'karpenter-eu-ca',
  validDays = 3650,
  now = Date.now(),
): Promise<CertificateAuthority> {
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as KeyPair;
  const notBefore = new Date(now - BackdateMs);
  const caCert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${commonName}`,
    notBefore,
    notAfter: new Date(notBefore.getTime() + validDays * DayMs),
    keys,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return authority(caCert, keys.privateKey, await exportKeyPem(keys.privateKey));
}

/** The CA kept in a Secret (PEM certificate and PKCS#8 key), able to issue again. */
export async function loadCertificateAuthority(certPem: string, keyPem: string): Promise<CertificateAuthority> {
  const caCert = new x509.X509Certificate(certPem);
  const der = x509.PemConverter.decodeFirst(keyPem);
  const privateKey = await webcrypto.subtle.importKey('pkcs8', der, algorithm, true, ['sign']);
  return authority(caCert, privateKey, keyPem);
}

function authority(caCert: x509.X509Certificate, privateKey: webcrypto.CryptoKey, keyPem: string): CertificateAuthority {
  const caPem = caCert.toString('pem');
  return {
    certPem: caPem,
    keyPem,
    async issue(sans, days = 365, now = Date.now()): Promise<ServingCertificate> {
      const leafKeys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as KeyPair;
      const names = [
        ...(sans.dns ?? []).map((value) => ({ type: 'dns' as const, value })),
        ...(sans.ips ?? []).map((value) => ({ type: 'ip' as const, value })),
      ];
      const start = new Date(now - BackdateMs);
      const cert = await x509.X509CertificateGenerator.create({
        serialNumber: serial(),
        subject: `CN=${sans.dns?.[0] ?? sans.ips?.[0] ?? 'localhost'}`,
        issuer: caCert.subject,
        notBefore: start,
        notAfter: new Date(start.getTime() + days * DayMs),
        signingKey: privateKey,
        publicKey: leafKeys.publicKey,
        signingAlgorithm: algorithm,
        extensions: [
          new x509.BasicConstraintsExtension(false, undefined, true),
          new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
          new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]),
          new x509.SubjectAlternativeNameExtension(names),
          await x509.AuthorityKeyIdentifierExtension.create(caCert),
        ],
      });
      return { certPem: cert.toString('pem'), keyPem: await exportKeyPem(leafKeys.privateKey), caPem };
    },
  };
}

/** A CA plus one certificate for 127.0.0.1/localhost: what every loopback HTTPS server of the test bed needs. */
export async function createLoopbackCertificate(): Promise<ServingCertificate> {
  const ca = await createCertificateAuthority('karpenter-eu-loopback-ca', 30);
  return ca.issue({ dns: ['localhost'], ips: ['127.0.0.1', '::1'] }, 30);
}
