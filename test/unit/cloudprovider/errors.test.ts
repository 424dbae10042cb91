import { describe, expect, it } from 'vitest';
import {
  CreateError,
  InsufficientCapacityError,
  NodeClaimNotFoundError,
  NodeClassNotReadyError,
  PermanentCloudError,
  QuotaExceededError,
  TransientCloudError,
  errorClassName,
  findInChain,
  ignoreInsufficientCapacity,
  ignoreNodeClaimNotFound,
  ignoreNodeClassNotReady,
  isCreateError,
  isInsufficientCapacityError,
  isNodeClaimNotFoundError,
  isNodeClassNotReadyError,
  isPermanentCloudError,
  isQuotaExceededError,
  isTransientCloudError,
} from '../../../src/cloudprovider/errors.js';

const guards = {
  NodeClaimNotFoundError: isNodeClaimNotFoundError,
  InsufficientCapacityError: isInsufficientCapacityError,
  QuotaExceededError: isQuotaExceededError,
  NodeClassNotReadyError: isNodeClassNotReadyError,
  TransientCloudError: isTransientCloudError,
  PermanentCloudError: isPermanentCloudError,
  CreateError: isCreateError,
} as const;

const samples: [keyof typeof guards, Error][] = [
  ['NodeClaimNotFoundError', new NodeClaimNotFoundError('getting instance i-1: not found')],
  [
    'InsufficientCapacityError',
    new InsufficientCapacityError('creating server: out of stock', [{ instanceType: 'b3-8', zone: 'gra-a', capacityType: 'on-demand' }]),
  ],
  ['QuotaExceededError', new QuotaExceededError('creating server: quota', { quota: 'cores' })],
  ['NodeClassNotReadyError', new NodeClassNotReadyError('resolving nodeclass default: not found')],
  ['TransientCloudError', new TransientCloudError('listing servers: 503', { retryAfterMs: 2000 })],
  ['PermanentCloudError', new PermanentCloudError('creating server: 400 bad image')],
  ['CreateError', new CreateError('creating server', { reason: 'ImageNotFound', message: 'image x not found' })],
];

describe('error guards', () => {
  it.each(samples)('%s is recognised by its own guard only', (className, error) => {
    for (const [guardName, guard] of Object.entries(guards)) {
      expect(guard(error), guardName).toBe(guardName === className);
    }
    expect(error.name).toBe(className);
    expect(errorClassName(error)).toBe(className);
  });

  it.each(samples)('%s is found through a chain of causes', (className, error) => {
    const wrapped = new Error('reconciling nodeclaim', { cause: new Error('launching', { cause: error }) });
    expect(guards[className](wrapped)).toBe(true);
    expect(errorClassName(wrapped)).toBe(className);
  });

  it('ignores non-errors and cause cycles', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(isNodeClaimNotFoundError(a)).toBe(false);
    expect(isNodeClaimNotFoundError(undefined)).toBe(false);
    expect(isNodeClaimNotFoundError('not found')).toBe(false);
    expect(errorClassName(new Error('x'))).toBe('unknown');
  });

  it('keeps the data each class carries', () => {
    const ice = findInChain(new Error('wrap', { cause: samples[1]![1] }), InsufficientCapacityError);
    expect(ice?.offerings).toEqual([{ instanceType: 'b3-8', zone: 'gra-a', capacityType: 'on-demand' }]);
    expect((samples[4]![1] as TransientCloudError).retryAfterMs).toBe(2000);
    expect((samples[2]![1] as QuotaExceededError).quota).toBe('cores');
    const create = samples[6]![1] as CreateError;
    expect([create.conditionReason, create.conditionMessage]).toEqual(['ImageNotFound', 'image x not found']);
    expect(new TransientCloudError('x').retryAfterMs).toBeUndefined();
  });

  it('reports the most specific class when a CreateError wraps a capacity error', () => {
    const ice = samples[1]![1];
    expect(errorClassName(new CreateError('creating', { reason: 'x', message: 'y' }, { cause: ice }))).toBe('InsufficientCapacityError');
  });
});

describe('ignore helpers', () => {
  it('swallow their own class and rethrow anything else', async () => {
    const notFound = new Error('deleting', { cause: new NodeClaimNotFoundError('gone') });
    expect(() => ignoreNodeClaimNotFound(notFound)).not.toThrow();
    await expect(Promise.reject(notFound).catch(ignoreNodeClaimNotFound)).resolves.toBeUndefined();
    const other = new TransientCloudError('503');
    expect(() => ignoreNodeClaimNotFound(other)).toThrow(other);
    expect(() => ignoreInsufficientCapacity(samples[1]![1])).not.toThrow();
    expect(() => ignoreInsufficientCapacity(other)).toThrow(other);
    expect(() => ignoreNodeClassNotReady(samples[3]![1])).not.toThrow();
    expect(() => ignoreNodeClassNotReady(other)).toThrow(other);
  });
});
