// An OVH 200 that lacks what the call must answer is an error through the real SDK, never "no nodes": `null`
// (the SDK's reading of an empty body), `{}` or truncated JSON on the node and pool listings.
import { afterEach, describe, expect, it } from 'vitest';
import { LabelInstanceType, LabelTopologyZone } from '../../../src/apis/v1/labels.js';
import {
  IncompleteResponseError,
  findInChain,
  isNodeClaimNotFoundError,
  isTransientCloudError,
} from '../../../src/cloudprovider/errors.js';
import type { Fault } from '../../../src/testbed/emulators/faults.js';
import { startOvhTestbed, type OvhTestbed } from './ovhcloud-testbed.js';

const pin = [
  { key: LabelInstanceType, operator: 'In' as const, values: ['b3-8'] },
  { key: LabelTopologyZone, operator: 'In' as const, values: ['eu-west-par-a'] },
];

let bed: OvhTestbed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail, it succeeded');
}

const spoiledAnswers: [string, string, Fault][] = [
  ['listNodes', 'an empty body', { kind: 'empty-body' }],
  ['listNodes', '{}', { kind: 'empty-object' }],
  ['listNodes', 'a truncated body', { kind: 'truncated-body' }],
  ['listNodePools', 'an empty body', { kind: 'empty-body' }],
  ['listNodePools', '{}', { kind: 'empty-object' }],
];

describe('OVH listings that lack their list', () => {
  it.each(spoiledAnswers)(
    '%s answering 200 with %s makes list() and get() throw a retryable IncompleteResponseError',
    async (action, _what, fault) => {
      const b = (bed = await startOvhTestbed());
      const { providerID } = await b.provider.create(b.nodeClaim('a', pin));
      b.settle();
      const rule = b.emulator.faults.add({ match: { action }, fault });
      const listed = await rejection(b.provider.list());
      expect(isTransientCloudError(listed), String(listed)).toBe(true);
      expect(findInChain(listed, IncompleteResponseError), String(listed)).toBeDefined();
      const got = await rejection(b.provider.get(providerID));
      expect(isNodeClaimNotFoundError(got)).toBe(false);
      expect(findInChain(got, IncompleteResponseError), String(got)).toBeDefined();
      b.emulator.faults.remove(rule);
      expect((await b.provider.list()).map((i) => i.providerID)).toEqual([providerID]);
    },
  );

  it('a legitimately empty node list ([]) is still an answer', async () => {
    const b = (bed = await startOvhTestbed());
    await b.provider.create(b.nodeClaim('a', pin));
    b.settle();
    b.emulator.faults.add({ match: { action: 'listNodes' }, fault: { kind: 'short-page', keep: 0 } });
    expect(await b.provider.list()).toEqual([]);
  });
});
