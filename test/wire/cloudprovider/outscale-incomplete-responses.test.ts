// An Outscale 200 that lacks what the call must answer (empty body, `{}`, truncated JSON) is an error through
// the real client, never "no VMs": list() and get() throw a retryable IncompleteResponseError instead of
// handing garbage collection an empty listing or a not-found.
import { afterEach, describe, expect, it } from 'vitest';
import {
  IncompleteResponseError,
  findInChain,
  isNodeClaimNotFoundError,
  isTransientCloudError,
} from '../../../src/cloudprovider/errors.js';
import { LabelInstanceType, LabelTopologyZone } from '../../../src/apis/v1/labels.js';
import type { Fault } from '../../../src/testbed/emulators/faults.js';
import { startOutscaleTestbed, type OutscaleTestbed } from './outscale-testbed.js';

let bed: OutscaleTestbed | undefined;
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

async function launchTwo(b: OutscaleTestbed): Promise<string[]> {
  const zone = b.emulator.subregions[0] as string;
  const requirements = [
    { key: LabelInstanceType, operator: 'In' as const, values: ['tinav5.c2r4p3'] },
    { key: LabelTopologyZone, operator: 'In' as const, values: [zone] },
  ];
  const ids: string[] = [];
  for (const name of ['node-a', 'node-b']) ids.push((await b.provider.create(b.nodeClaim(name, requirements))).providerID);
  b.settle();
  return ids;
}

const spoiledAnswers: [string, Fault][] = [
  ['an empty body', { kind: 'empty-body' }],
  ['{}', { kind: 'empty-object' }],
  ['a truncated body', { kind: 'truncated-body' }],
];

describe('Outscale ReadVms answers that lack Vms', () => {
  it.each(spoiledAnswers)(
    'HTTP 200 with %s makes list() throw a retryable IncompleteResponseError, not return []',
    async (_what, fault) => {
      const b = (bed = await startOutscaleTestbed());
      await launchTwo(b);
      const rule = b.emulator.faults.add({ match: { action: 'ReadVms' }, fault });
      const error = await rejection(b.provider.list());
      expect(findInChain(error, IncompleteResponseError), String(error)).toBeDefined();
      expect(isTransientCloudError(error)).toBe(true);
      expect(b.emulator.calls.count({ action: 'ReadVms' })).toBeGreaterThan(1); // retried before giving up
      b.emulator.faults.remove(rule);
      expect(await b.provider.list()).toHaveLength(2);
    },
  );

  it.each(spoiledAnswers)('HTTP 200 with %s makes get() of a live VM fail, never answer not-found', async (_what, fault) => {
    const b = (bed = await startOutscaleTestbed());
    const [providerID] = await launchTwo(b);
    b.emulator.faults.add({ match: { action: 'ReadVms' }, fault });
    const error = await rejection(b.provider.get(providerID as string));
    expect(isNodeClaimNotFoundError(error)).toBe(false);
    expect(findInChain(error, IncompleteResponseError), String(error)).toBeDefined();
  });

  it('a spoiled answer once among retries is ridden out: list() reads every VM', async () => {
    const b = (bed = await startOutscaleTestbed());
    await launchTwo(b);
    b.emulator.faults.add({ match: { action: 'ReadVms' }, fault: { kind: 'empty-object' }, times: 1 });
    expect(await b.provider.list()).toHaveLength(2);
  });

  it('a legitimately empty answer (Vms: []) is still an empty list', async () => {
    const b = (bed = await startOutscaleTestbed());
    expect(await b.provider.list()).toEqual([]);
  });
});
