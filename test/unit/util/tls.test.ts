import https from 'node:https';
import { type AddressInfo } from 'node:net';
import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCertificateAuthority, createLoopbackCertificate } from '../../../src/util/tls.js';

function get(port: number, ca: string, servername?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    https
      .get({ host: '127.0.0.1', port, ca, path: '/', servername }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve(body));
      })
      .on('error', reject);
  });
}

describe('tls', () => {
  it('issues a loopback certificate that a client trusting only the CA accepts', async () => {
    const cert = await createLoopbackCertificate();
    const server = https.createServer({ cert: cert.certPem, key: cert.keyPem }, (_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await expect(get(port, cert.caPem)).resolves.toBe('ok');
      const otherCa = await createCertificateAuthority('someone-else');
      await expect(get(port, otherCa.certPem)).rejects.toThrow();
    } finally {
      server.close();
    }
  });

  it('puts the requested names in the subject alternative names, signed by the CA', async () => {
    const ca = await createCertificateAuthority('test-ca');
    const issued = await ca.issue({ dns: ['karpenter-eu.karpenter.svc'], ips: ['10.0.0.1'] }, 10);
    const leaf = new X509Certificate(issued.certPem);
    expect(leaf.subjectAltName).toContain('DNS:karpenter-eu.karpenter.svc');
    expect(leaf.subjectAltName).toContain('IP Address:10.0.0.1');
    expect(leaf.checkIssued(new X509Certificate(ca.certPem))).toBe(true);
    expect(leaf.ca).toBe(false);
    expect(new X509Certificate(ca.certPem).ca).toBe(true);
  });
});
