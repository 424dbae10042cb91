import { describe, expect, it } from 'vitest';
import {
  errorClassName,
  findInChain,
  InsufficientCapacityError,
  QuotaExceededError,
  TransientCloudError,
} from '../../../../src/cloudprovider/errors.js';
import { ScalewayApiError, toCloudError, toNetworkError, type ScalewayFailure } from '../../../../src/cloudprovider/scaleway/errors.js';

const offering = { instanceType: 'L4-1-24G', zone: 'fr-par-2', capacityType: 'on-demand' };

describe('Scaleway errors → core error classes', () => {
  it.each<[string, ScalewayFailure, { offering?: typeof offering }, string]>([
    [
      'out of stock at launch',
      { status: 412, type: 'out_of_stock', message: 'out of stock', resource: 'L4-1-24G' },
      { offering },
      'InsufficientCapacityError',
    ],
    ['out of stock without an offering', { status: 412, type: 'out_of_stock', message: 'out of stock' }, {}, 'TransientCloudError'],
    [
      'quotas exceeded',
      {
        status: 403,
        type: 'quotas_exceeded',
        message: 'quota(s) exceeded',
        details: [{ resource: 'instances_l4_1_24g', quota: 0, current: 0 }],
      },
      {},
      'QuotaExceededError',
    ],
    [
      'not found',
      { status: 404, type: 'not_found', message: 'resource is not found', resource: 'instance_server' },
      {},
      'NodeClaimNotFoundError',
    ],
    [
      'too many requests',
      { status: 429, type: 'too_many_requests', message: 'too many requests', retryAfterMs: 2000 },
      {},
      'TransientCloudError',
    ],
    ['internal error', { status: 500, type: 'internal_error', message: 'internal error' }, {}, 'TransientCloudError'],
    ['bad gateway without body type', { status: 502, message: 'http error 502' }, {}, 'TransientCloudError'],
    [
      'transient state',
      { status: 409, type: 'transient_state', message: 'resource is in a transient state: starting' },
      {},
      'TransientCloudError',
    ],
    [
      'invalid arguments',
      {
        status: 400,
        type: 'invalid_arguments',
        message: 'invalid argument(s)',
        details: [{ argument_name: 'image', help_message: 'unknown image' }],
      },
      {},
      'PermanentCloudError',
    ],
    [
      'authentication denied',
      { status: 401, type: 'denied_authentication', message: 'authentication is denied' },
      {},
      'PermanentCloudError',
    ],
    ['permissions denied', { status: 403, type: 'permissions_denied', message: 'insufficient permissions' }, {}, 'PermanentCloudError'],
  ])('%s', (_name, failure, context, expected) => {
    const error = toCloudError(failure, { operation: 'creating server', ...context });
    expect(errorClassName(error)).toBe(expected);
    expect(error.message.startsWith('creating server: ')).toBe(true);
    expect(findInChain(error, ScalewayApiError)?.failure).toEqual(failure);
  });

  it('an out-of-stock error names the refused offering', () => {
    const error = toCloudError({ status: 412, type: 'out_of_stock', message: 'out of stock' }, { operation: 'powering on', offering });
    expect(findInChain(error, InsufficientCapacityError)?.offerings).toEqual([offering]);
  });

  it('keeps the quota name and the rate limit reset', () => {
    const quota = toCloudError(
      { status: 403, type: 'quotas_exceeded', message: 'q', details: [{ resource: 'instances_dev1_s' }] },
      { operation: 'x' },
    );
    expect(findInChain(quota, QuotaExceededError)?.quota).toBe('instances_dev1_s');
    const throttled = toCloudError({ status: 429, type: 'too_many_requests', message: 't', retryAfterMs: 3000 }, { operation: 'x' });
    expect(findInChain(throttled, TransientCloudError)?.retryAfterMs).toBe(3000);
  });

  it('names the invalid arguments in the message', () => {
    const error = toCloudError(
      {
        status: 400,
        type: 'invalid_arguments',
        message: 'invalid argument(s)',
        details: [{ argument_name: 'image', help_message: 'unknown image' }],
      },
      { operation: 'creating server' },
    );
    expect(error.message).toBe('creating server: invalid argument(s) (image: unknown image)');
  });

  it('a request without an answer is transient', () => {
    expect(errorClassName(toNetworkError(new TypeError('fetch failed'), { operation: 'listing servers' }))).toBe('TransientCloudError');
  });
});
