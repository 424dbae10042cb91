import { describe, expect, it } from 'vitest';
import {
  InsufficientCapacityError,
  NodeClaimNotFoundError,
  PermanentCloudError,
  QuotaExceededError,
  TransientCloudError,
  findInChain,
} from '../../../../src/cloudprovider/errors.js';
import { ovhSdkParams } from '../../../../src/cloudprovider/ovhcloud/client.js';
import { failureOf, isOvhNotFound, nodeFailureError, ovhStatusOf, toCloudError } from '../../../../src/cloudprovider/ovhcloud/errors.js';

describe('ovhcloud error mapping', () => {
  it.each([
    [{ status: 404, message: 'Node x does not exist' }, PermanentCloudError],
    [{ status: 429, message: 'Too many requests' }, TransientCloudError],
    [{ status: 500, message: 'Internal server error' }, TransientCloudError],
    [{ status: 503, message: 'Service unavailable' }, TransientCloudError],
    [{ message: 'socket hang up' }, TransientCloudError],
    [
      { status: 400, message: '[InvalidDataError] the cluster would have 101 nodes: a Managed Kubernetes cluster is limited to 100 nodes' },
      QuotaExceededError,
    ],
    [{ status: 403, message: 'This credential is not valid' }, PermanentCloudError],
    [{ status: 409, message: 'A node pool named x already exists' }, PermanentCloudError],
    [{ status: 400, message: 'Missing parameter(s): flavorName' }, PermanentCloudError],
  ])('%j → %o', (failure: { status?: number; message: string }, cls) => {
    const error = toCloudError(failure, 'doing something');
    expect(error).toBeInstanceOf(cls);
    expect(error.message).toMatch(/^doing something: /);
    expect(ovhStatusOf(error)).toBe(failure.status);
  });

  it.each([
    ['the cluster', 'Cluster 6f1c9a52 does not exist'],
    ['the project', 'This service does not exist'],
    ['the node', 'Node x does not exist'],
  ])(
    'a 404 about %s is never NodeClaimNotFound by itself: only a caller that just read the cluster can call a node gone',
    (_what, message) => {
      const error = toCloudError({ status: 404, message }, 'listing nodes of cluster k');
      expect(error).not.toBeInstanceOf(NodeClaimNotFoundError);
      expect(isOvhNotFound(error)).toBe(true);
    },
  );

  it('names the cluster cap quota', () => {
    const error = toCloudError({ status: 400, message: 'a Managed Kubernetes cluster is limited to 100 nodes' }, 'scaling');
    expect((error as QuotaExceededError).quota).toBe('cluster-nodes');
  });

  it.each([
    [
      { error: 404, message: 'gone' },
      { status: 404, message: 'gone' },
    ],
    [{ error: -104 }, { message: 'socket error -104' }],
    [{ error: new Error('no answer within 100 ms') }, { message: 'no answer within 100 ms' }],
    [{ error: '[OVH] Unable to fetch OVH API time' }, { message: '[OVH] Unable to fetch OVH API time' }],
    [new Error('boom'), { message: 'boom' }],
  ])('reads the SDK rejection %j', (rejection, expected) => {
    expect(failureOf(rejection)).toEqual(expected);
  });

  it.each([
    ['FLAVOR_OUT_OF_STOCK_ERROR', InsufficientCapacityError],
    ['USER_QUOTA_ERROR', QuotaExceededError],
    ['ERROR', PermanentCloudError],
  ])('node status %s → %o', (status, cls) => {
    const offering = { instanceType: 'b3-8', zone: 'eu-west-par-a', capacityType: 'on-demand' };
    const error = nodeFailureError(status, offering, 'n1');
    expect(error).toBeInstanceOf(cls);
    if (cls === InsufficientCapacityError) expect(findInChain(error, InsufficientCapacityError)?.offerings).toEqual([offering]);
  });
});

describe('ovhcloud SDK parameters', () => {
  const keys = { applicationKey: 'ak', applicationSecret: 'as', consumerKey: 'ck' };
  it.each([
    [{}, { endpoint: 'ovh-eu' }],
    [{ endpoint: 'ovh-ca' }, { endpoint: 'ovh-ca' }],
    [{ endpoint: 'https://127.0.0.1:8443' }, { host: '127.0.0.1', port: 8443 }],
    [
      { endpoint: 'ovh-eu', host: '127.0.0.1', port: 9 },
      { host: '127.0.0.1', port: 9 },
    ],
  ])('%j', (settings, expected) => {
    expect(ovhSdkParams({ ...keys, ...settings })).toEqual({ appKey: 'ak', appSecret: 'as', consumerKey: 'ck', ...expected });
  });
});
