import { describe, expect, it } from 'vitest';
import { TransientCloudError } from '../../../../src/cloudprovider/errors.js';
import { AnnotationCreateAttempted, createWaitMs, parseCreateAttempted } from '../../../../src/cloudprovider/scaleway/create-window.js';
import { ScalewayApiError } from '../../../../src/cloudprovider/scaleway/errors.js';
import { mayHaveCreated } from '../../../../src/cloudprovider/scaleway/instances.js';

const windowMs = 60_000;

describe('Scaleway create window', () => {
  it('no attempt known: create now', () => {
    expect(createWaitMs({}, 1_000, windowMs)).toBe(0);
  });

  it('an attempt recorded on the NodeClaim (a restart): wait until the window after it has passed', () => {
    expect(createWaitMs({ recordedAt: 10_000 }, 30_000, windowMs)).toBe(40_000);
    expect(createWaitMs({ recordedAt: 10_000 }, 70_000, windowMs)).toBe(0);
  });

  it('the recorded attempt settled in this process (refused, or its server known): no wait', () => {
    expect(createWaitMs({ recordedAt: 10_000, settledAt: 10_000 }, 11_000, windowMs)).toBe(0);
  });

  it('an older settled attempt does not settle a newer recorded one', () => {
    expect(createWaitMs({ recordedAt: 20_000, settledAt: 10_000 }, 21_000, windowMs)).toBe(59_000);
  });

  it('an attempt of unknown outcome in this process counts from when it ended', () => {
    expect(createWaitMs({ recordedAt: 10_000, settledAt: 10_000, uncertainSince: 40_000 }, 41_000, windowMs)).toBe(59_000);
  });

  it('reads the annotation; an unreadable one is no record', () => {
    expect(parseCreateAttempted({ [AnnotationCreateAttempted]: '2026-11-26T07:00:00.000Z' })).toBe(Date.parse('2026-11-26T07:00:00.000Z'));
    expect(parseCreateAttempted({ [AnnotationCreateAttempted]: 'soon' })).toBeUndefined();
    expect(parseCreateAttempted(undefined)).toBeUndefined();
  });
});

describe('whether a failed create may have made the server', () => {
  const answered = (status: number) => new TransientCloudError(`http ${status}`, { cause: new ScalewayApiError({ status, message: 'x' }) });

  it('no answer, a 500 or an unreadable 2xx: maybe', () => {
    expect(mayHaveCreated(new TransientCloudError('fetch failed', { cause: new TypeError('connection reset') }))).toBe(true);
    expect(mayHaveCreated(answered(500))).toBe(true);
    expect(mayHaveCreated(answered(201))).toBe(true);
  });

  it('a 429, a 503 or another 4xx: the request was turned away', () => {
    expect(mayHaveCreated(answered(429))).toBe(false);
    expect(mayHaveCreated(answered(503))).toBe(false);
    expect(mayHaveCreated(answered(409))).toBe(false);
  });
});
