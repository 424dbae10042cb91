import { describe, expect, it } from 'vitest';
import {
  caBundlePatch,
  type CertificatePolicy,
  decideCertificates,
  serviceDnsNames,
  type StoredCertificates,
} from '../../../../src/domain/certificates/lifecycle.js';

const Day = 86_400_000;
const t0 = Date.UTC(2026, 0, 1);
const names = serviceDnsNames('karpenter-eu', 'karpenter');
const policy: CertificatePolicy = { servingValidityMs: 90 * Day, dnsNames: names };

/** A CA of ten years and a 90-day serving certificate, both made at t0 and consistent. */
function stored(
  over: { ca?: Partial<NonNullable<StoredCertificates['ca']>>; serving?: Partial<NonNullable<StoredCertificates['serving']>> } = {},
): StoredCertificates {
  return {
    ca: { notBefore: t0, notAfter: t0 + 3650 * Day, isCa: true, keyMatches: true, ...over.ca },
    serving: { notBefore: t0, notAfter: t0 + 90 * Day, keyMatches: true, signedByCa: true, dnsNames: names, ...over.serving },
  };
}

describe('decideCertificates', () => {
  it('creates the Secret when there is none', () => {
    expect(decideCertificates(undefined, policy, t0)).toEqual({ action: 'create' });
  });

  it('keeps a sound pair until a third of the serving lifetime is left, and renews it then', () => {
    expect(decideCertificates(stored(), policy, t0 + Day)).toEqual({ action: 'keep', recheckAt: t0 + 60 * Day });
    expect(decideCertificates(stored(), policy, t0 + 60 * Day)).toMatchObject({
      action: 'issue-serving',
      reason: expect.stringContaining('expires at'),
    });
  });

  it.each([
    ['no CA', { ca: undefined }, 'no readable CA'],
    ['a CA that is no CA', { ca: { isCa: false } }, 'not a CA certificate'],
    ['a CA key of another certificate', { ca: { keyMatches: false } }, 'ca.key is not the key'],
    ['a CA with less than one serving lifetime left', { ca: { notAfter: t0 + 80 * Day } }, 'the CA expires'],
  ] as const)('replaces the CA (and so the serving certificate) on %s', (_what, over, reason) => {
    const facts = 'ca' in over && over.ca === undefined ? { serving: stored().serving } : stored(over as never);
    expect(decideCertificates(facts, policy, t0 + Day)).toEqual({ action: 'replace-ca', reason: expect.stringContaining(reason) });
  });

  it.each([
    ['no serving certificate', { serving: undefined }, 'no readable serving'],
    ['a key of another certificate', { serving: { keyMatches: false } }, 'tls.key is not the key'],
    ['a certificate another CA signed', { serving: { signedByCa: false } }, 'not signed by the CA'],
    ['other names than the Service', { serving: { dnsNames: ['other.karpenter.svc'] } }, 'names other.karpenter.svc'],
  ] as const)('issues a serving certificate from the kept CA on %s', (_what, over, reason) => {
    const facts = 'serving' in over && over.serving === undefined ? { ca: stored().ca } : stored(over as never);
    expect(decideCertificates(facts, policy, t0 + Day)).toEqual({ action: 'issue-serving', reason: expect.stringContaining(reason) });
  });

  it('rechecks at the CA replacement date when it comes before the serving renewal', () => {
    const late = stored({ ca: { notAfter: t0 + 150 * Day } });
    expect(decideCertificates(late, policy, t0 + Day)).toEqual({ action: 'keep', recheckAt: t0 + 60 * Day });
    const sooner = stored({ ca: { notAfter: t0 + 140 * Day } });
    expect(decideCertificates(sooner, policy, t0 + Day)).toEqual({ action: 'keep', recheckAt: t0 + 50 * Day });
  });
});

describe('caBundlePatch', () => {
  it('sets the caBundle of each webhook that lacks it or has another, guarded by its name, and nothing when all match', () => {
    const config = { webhooks: [{ name: 'a', caBundle: 'NEW' }, { name: 'b' }, { name: 'c', caBundle: 'OLD' }] };
    expect(caBundlePatch(config, 'NEW')).toEqual([
      { op: 'test', path: '/webhooks/1/name', value: 'b' },
      { op: 'add', path: '/webhooks/1/clientConfig/caBundle', value: 'NEW' },
      { op: 'test', path: '/webhooks/2/name', value: 'c' },
      { op: 'add', path: '/webhooks/2/clientConfig/caBundle', value: 'NEW' },
    ]);
    expect(caBundlePatch({ webhooks: [{ name: 'a', caBundle: 'NEW' }] }, 'NEW')).toEqual([]);
  });
});
