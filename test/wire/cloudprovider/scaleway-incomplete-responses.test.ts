// A Scaleway 200 that lacks what the call must answer is an error through the real SDK, never "no servers":
// an empty body, `{}`, truncated JSON, or a page that comes back empty before the X-Total-Count it announces.
import { afterEach, describe, expect, it } from 'vitest';
import {
  IncompleteResponseError,
  findInChain,
  isNodeClaimNotFoundError,
  isTransientCloudError,
} from '../../../src/cloudprovider/errors.js';
import type { Fault } from '../../../src/testbed/emulators/faults.js';
import { startTestbed, type Testbed, type TestbedOptions } from './scaleway-testbed.js';

const pin = (zone: string) => [
  { key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: ['DEV1-S'] },
  { key: 'topology.kubernetes.io/zone', operator: 'In' as const, values: [zone] },
];

let bed: Testbed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

async function start(options?: TestbedOptions): Promise<Testbed> {
  bed = await startTestbed(options);
  return bed;
}

async function launch(b: Testbed, names: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const name of names) ids.push((await b.provider.create(b.nodeClaim(name, pin('fr-par-1')))).providerID);
  b.settle();
  return ids;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail, it succeeded');
}

describe('Scaleway listServers answers that lack servers', () => {
  it.each<[string, Fault]>([
    ['an empty body', { kind: 'empty-body' }],
    ['{}', { kind: 'empty-object' }],
    ['a truncated body', { kind: 'truncated-body' }],
    ['an empty first page while X-Total-Count says 3', { kind: 'short-page' }],
  ])('HTTP 200 with %s makes list() throw a retryable error, not return []', async (_what, fault) => {
    const b = await start();
    await launch(b, ['a', 'b', 'c']);
    const rule = b.emulator.faults.add({ match: { action: 'listServers' }, fault });
    const error = await rejection(b.provider.list());
    expect(isTransientCloudError(error), String(error)).toBe(true);
    expect(findInChain(error, IncompleteResponseError), String(error)).toBeDefined();
    b.emulator.faults.remove(rule);
    expect(await b.provider.list()).toHaveLength(3);
  });

  it('a page short of its entries makes the pager reach an empty page before X-Total-Count: the list fails', async () => {
    const b = await start({ listPageSize: 2 });
    await launch(b, ['a', 'b', 'c']);
    // Page 1 loses one of its two servers; pages 2 and 3 are answered truly (one server, then none).
    b.emulator.faults.add({ match: { action: 'listServers' }, fault: { kind: 'short-page', keep: 1 }, times: 1 });
    const error = await rejection(b.provider.list());
    expect(findInChain(error, IncompleteResponseError), String(error)).toBeDefined();
    expect(b.emulator.calls.count({ action: 'listServers' })).toBeGreaterThanOrEqual(3);
  });

  it.each<[string, Fault]>([
    ['{}', { kind: 'empty-object' }],
    ['a truncated body', { kind: 'truncated-body' }],
  ])('getServer answering 200 with %s fails retryably, never not-found', async (_what, fault) => {
    const b = await start();
    const [providerID] = await launch(b, ['a']);
    b.emulator.faults.add({ match: { action: 'getServer' }, fault });
    const error = await rejection(b.provider.get(providerID as string));
    expect(isNodeClaimNotFoundError(error)).toBe(false);
    expect(findInChain(error, IncompleteResponseError), String(error)).toBeDefined();
  });

  it.each<[string, Fault]>([
    ['{}', { kind: 'empty-object' }],
    ['an empty page while total_count says 1', { kind: 'short-page' }],
  ])(
    'a Block volume listing answered 200 with %s keeps delete from calling the server gone and leaking its root volume',
    async (_what, fault) => {
      const b = await start();
      const nodeClaim = b.nodeClaim('del', pin('fr-par-1'));
      const launched = { ...nodeClaim, status: { providerID: (await b.provider.create(nodeClaim)).providerID } };
      b.settle();
      await b.provider.delete(launched);
      b.settle(); // terminated: only its detached root volume is left
      const rule = b.emulator.faults.add({ match: { action: 'listVolumes' }, fault });
      const error = await rejection(b.provider.delete(launched));
      expect(isNodeClaimNotFoundError(error)).toBe(false);
      expect(findInChain(error, IncompleteResponseError), String(error)).toBeDefined();
      expect(b.emulator.state().volumes).toHaveLength(1);
      b.emulator.faults.remove(rule);
      expect(isNodeClaimNotFoundError(await rejection(b.provider.delete(launched)))).toBe(true);
      expect(b.emulator.state().volumes).toEqual([]);
    },
  );

  it('a project with no servers still lists as empty (X-Total-Count: 0)', async () => {
    const b = await start();
    expect(await b.provider.list()).toEqual([]);
  });
});
