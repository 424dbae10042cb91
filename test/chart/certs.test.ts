import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  generateWebhookCertificates,
  parseCertificateArguments,
  serviceDnsNames,
  writeCertificateFiles,
} from '../../scripts/chart-certs.js';

describe('webhook certificate tooling (scripts/chart-certs.ts)', () => {
  it('issues a serving certificate for every Service DNS name, signed by the CA of the caBundle', async () => {
    const certs = await generateWebhookCertificates('karpenter-eu', 'autoscaling', 30);
    const serving = new X509Certificate(certs.certPem);
    const ca = new X509Certificate(Buffer.from(certs.caBundle, 'base64').toString('utf8'));
    expect(serving.verify(ca.publicKey)).toBe(true);
    expect(ca.ca).toBe(true);
    expect(serving.ca).toBe(false);
    for (const name of serviceDnsNames('karpenter-eu', 'autoscaling')) expect(serving.checkHost(name)).toBe(name);
    expect(serving.subject).toBe('CN=karpenter-eu.autoscaling.svc');
  });

  it('writes the files with private keys readable by the owner only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chart-certs-'));
    try {
      const certs = await generateWebhookCertificates('svc', 'ns', 1);
      const files = writeCertificateFiles(dir, certs);
      expect(files.map((f) => f.slice(dir.length + 1))).toEqual(['ca.crt', 'ca.key', 'tls.crt', 'tls.key']);
      expect(statSync(join(dir, 'tls.key')).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, 'ca.key')).mode & 0o777).toBe(0o600);
      expect(readFileSync(join(dir, 'tls.crt'), 'utf8')).toBe(certs.certPem);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [['--service', 'Bad_Name'], '--service is "Bad_Name"; accepted: a DNS label'],
    [['--days', '0'], '--days is "0"; accepted: a whole number of days, at least 1'],
    [['--port', '1'], 'unknown flag "--port"'],
    [['--namespace'], '--namespace needs a value'],
  ])('refuses %j naming the value and what is accepted', (argv, message) => {
    expect(() => parseCertificateArguments(argv, '/tmp/out')).toThrow(message);
  });

  it('defaults to the chart Service in the karpenter namespace', () => {
    expect(parseCertificateArguments([], '/tmp/out')).toEqual({
      service: 'karpenter-eu',
      namespace: 'karpenter',
      out: '/tmp/out',
      days: 365,
    });
  });
});
