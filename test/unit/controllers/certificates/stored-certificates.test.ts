import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { certificateSecret, storedCertificates, storedPems } from '../../../../src/controllers/certificates/stored-certificates.js';
import { createCertificateAuthority, loadCertificateAuthority } from '../../../../src/util/tls.js';

const dns = ['karpenter-eu.karpenter.svc', 'karpenter-eu'];

async function pair(): Promise<{ caPem: string; caKeyPem: string; certPem: string; keyPem: string }> {
  const ca = await createCertificateAuthority('test-ca', 365, Date.UTC(2026, 0, 1));
  const serving = await ca.issue({ dns }, 90, Date.UTC(2026, 0, 1));
  return { caPem: ca.certPem, caKeyPem: ca.keyPem, certPem: serving.certPem, keyPem: serving.keyPem };
}

describe('the certificate Secret as facts', () => {
  it('reads back what it writes: a CA with its key, a serving certificate it signed, the validity the clock gave', async () => {
    const pems = await pair();
    const secret = certificateSecret({ namespace: 'karpenter', name: 'karpenter-eu-cert' }, pems);
    expect(secret.type).toBe('kubernetes.io/tls');
    expect(storedPems(secret)).toEqual(pems);
    const facts = storedCertificates(storedPems(secret));
    expect(facts.ca).toEqual({ isCa: true, keyMatches: true, notBefore: Date.UTC(2026, 0, 1) - 60_000, notAfter: expect.any(Number) });
    expect(facts.serving).toMatchObject({ keyMatches: true, signedByCa: true, dnsNames: dns, notBefore: Date.UTC(2026, 0, 1) - 60_000 });
    expect((facts.serving?.notAfter ?? 0) - (facts.serving?.notBefore ?? 0)).toBe(90 * 86_400_000);
  });

  it('tells a swapped key, another CA and unreadable data apart', async () => {
    const [a, b] = [await pair(), await pair()];
    expect(storedCertificates({ ...a, caKeyPem: b.caKeyPem }).ca?.keyMatches).toBe(false);
    expect(storedCertificates({ ...a, keyPem: b.keyPem }).serving?.keyMatches).toBe(false);
    expect(storedCertificates({ ...a, certPem: b.certPem }).serving?.signedByCa).toBe(false);
    expect(storedCertificates({ ...a, caPem: 'not a certificate', certPem: '' })).toEqual({});
    expect(storedCertificates({ ...a, caPem: a.certPem }).ca?.isCa).toBe(false);
  });

  it('a CA loaded from the Secret issues certificates the stored CA verifies', async () => {
    const pems = await pair();
    const loaded = await loadCertificateAuthority(pems.caPem, pems.caKeyPem);
    const serving = await loaded.issue({ dns }, 90);
    expect(new X509Certificate(serving.certPem).verify(new X509Certificate(pems.caPem).publicKey)).toBe(true);
    expect(storedCertificates({ ...pems, certPem: serving.certPem, keyPem: serving.keyPem }).serving?.signedByCa).toBe(true);
  });
});
