import { describe, expect, it } from 'vitest';
import {
  InsufficientCapacityError,
  PermanentCloudError,
  QuotaExceededError,
  TransientCloudError,
} from '../../../../src/cloudprovider/errors.js';
import { toCloudError } from '../../../../src/cloudprovider/outscale/error-mapping.js';
import { OutscaleApiError, OutscaleTransportError } from '../../../../src/cloudprovider/outscale/errors.js';

function apiError(status: number, Code: string, Type: string, retryAfterMs?: number): OutscaleApiError {
  return new OutscaleApiError({
    action: 'CreateVms',
    status,
    errors: [{ Code, Type, Details: 'd' }],
    requestId: 'req-1',
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
}

const offering = { instanceType: 'tinav5.c2r4p2', zone: 'eu-west-2a', capacityType: 'on-demand' };

describe('Outscale errors → CloudProvider errors', () => {
  it.each([
    ['503 internal error', apiError(503, '2000', 'InternalError'), TransientCloudError],
    ['429 throttling', apiError(429, '3', 'RequestLimitExceeded'), TransientCloudError],
    ['no answer', new OutscaleTransportError('ReadVms', new Error('ECONNRESET'), false), TransientCloudError],
    ['timeout', new OutscaleTransportError('ReadVms', new Error('aborted'), true), TransientCloudError],
    ['out of stock', apiError(409, '3001', 'InsufficientCapacity'), InsufficientCapacityError],
    ['too many vms', apiError(409, '10010', 'TooManyResources (QuotaExceded)'), QuotaExceededError],
    ['too many cores', apiError(409, '10029', 'TooManyResources (QuotaExceded)'), QuotaExceededError],
    ['unknown image', apiError(400, '5023', 'InvalidResource'), PermanentCloudError],
    ['bad parameter', apiError(400, '4045', 'InvalidParameterValue'), PermanentCloudError],
    ['invalid state', apiError(409, '6006', 'InvalidState'), PermanentCloudError],
  ])('%s', (_name, err, expected) => {
    const mapped = toCloudError('creating vm', err, offering);
    expect(mapped).toBeInstanceOf(expected);
    expect(mapped.cause).toBe(err);
    expect(mapped.message).toMatch(/^creating vm: calling outscale/);
  });

  it('keeps Retry-After and names the quota', () => {
    expect((toCloudError('x', apiError(429, '3', 'RequestLimitExceeded', 2000)) as TransientCloudError).retryAfterMs).toBe(2000);
    expect((toCloudError('x', apiError(409, '10030', 'TooManyResources (QuotaExceded)')) as QuotaExceededError).quota).toBe('gpu');
  });

  it('an out-of-stock answer carries the offering tried', () => {
    const mapped = toCloudError('x', apiError(409, '3001', 'InsufficientCapacity'), offering) as InsufficientCapacityError;
    expect(mapped.offerings).toEqual([offering]);
  });
});
