import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  confirmMissing,
  decideGarbageCollection,
  type InstanceListing,
  type ListedInstance,
  type NodeClaimView,
} from '../../../../src/domain/termination/index.js';

const now = Date.UTC(2026, 0, 1, 12, 0, 0);
const grace = 30_000;
const old = now - 10 * 60_000;

const instance = (id: string, extra: Partial<ListedInstance> = {}): ListedInstance => ({
  providerID: `fake:///z/${id}`,
  createdAt: old,
  ...extra,
});
const claim = (name: string, id: string | undefined, extra: Partial<NodeClaimView> = {}): NodeClaimView => ({
  name,
  ...(id !== undefined ? { providerID: `fake:///z/${id}` } : {}),
  createdAt: old,
  deleting: false,
  nodeReady: false,
  ...extra,
});
const complete = (...instances: ListedInstance[]): InstanceListing => ({ kind: 'complete', instances });

describe('decideGarbageCollection: leaked instances', () => {
  it.each([
    ['an old instance without nodeclaim is leaked', complete(instance('i-1')), [], ['fake:///z/i-1']],
    ['an instance owned by providerID is kept', complete(instance('i-1')), [claim('a', 'i-1')], []],
    [
      'an instance owned by nodeclaim name (create in flight) is kept',
      complete(instance('i-1', { nodeClaimName: 'a' })),
      [claim('a', undefined)],
      [],
    ],
    [
      'a duplicate carrying a nodeclaim name whose providerID names another instance is leaked',
      complete(instance('i-1', { nodeClaimName: 'a' }), instance('i-2', { nodeClaimName: 'a' })),
      [claim('a', 'i-2')],
      ['fake:///z/i-1'],
    ],
    [
      'a young duplicate is spared like any young instance',
      complete(instance('i-1', { nodeClaimName: 'a', createdAt: now - 10_000 })),
      [claim('a', 'i-2')],
      [],
    ],
    [
      'a duplicate of a deleting nodeclaim is leaked too',
      complete(instance('i-1', { nodeClaimName: 'a' })),
      [claim('a', 'i-2', { deleting: true })],
      ['fake:///z/i-1'],
    ],
    ['a deleting nodeclaim still owns its instance', complete(instance('i-1')), [claim('a', 'i-1', { deleting: true })], []],
    ['a young instance is spared', complete(instance('i-1', { createdAt: now - 10_000 })), [], []],
    ['an instance created in the future is spared', complete(instance('i-1', { createdAt: now + 10_000 })), [], []],
    ['an instance without a known creation time is spared', complete(instance('i-1', { createdAt: Number.NaN })), [], []],
    ['a terminating instance is left to the cloud', complete(instance('i-1', { terminating: true })), [], []],
  ] as const)('%s', (_what, listing, nodeClaims, expected) => {
    const decision = decideGarbageCollection({ listing, nodeClaims, now, gracePeriodMs: grace });
    expect(decision.leakedInstances.map((i) => i.providerID)).toEqual(expected);
  });
});

describe('decideGarbageCollection: suspect nodeclaims', () => {
  it.each([
    ['launched and missing from the listing', [claim('a', 'i-9')], ['a']],
    ['not launched yet', [claim('a', undefined)], []],
    ['listed', [claim('a', 'i-1')], []],
    ['deleting already', [claim('a', 'i-9', { deleting: true })], []],
    ['its node is Ready', [claim('a', 'i-9', { nodeReady: true })], []],
    ['created within the grace period', [claim('a', 'i-9', { createdAt: now - 5_000 })], []],
  ] as const)('%s', (_what, nodeClaims, expected) => {
    const decision = decideGarbageCollection({ listing: complete(instance('i-1')), nodeClaims, now, gracePeriodMs: grace });
    expect(decision.suspectNodeClaims).toEqual(expected);
  });
});

describe('decideGarbageCollection: untrusted listings', () => {
  it.each([
    [{ kind: 'failed', reason: 'error: 503' }],
    [{ kind: 'failed', reason: 'timeout' }],
    [{ kind: 'partial', reason: 'page 3 missing' }],
  ] as const)('%o decides nothing and says why', (listing) => {
    const decision = decideGarbageCollection({ listing, nodeClaims: [claim('a', 'i-9')], now, gracePeriodMs: grace });
    expect(decision).toEqual({ leakedInstances: [], suspectNodeClaims: [], skipped: { listing: listing.kind, reason: listing.reason } });
  });
});

describe('confirmMissing', () => {
  it('confirms only what was missing on two consecutive passes', () => {
    const first = confirmMissing(new Set(), ['a', 'b']);
    expect(first.confirmed).toEqual([]);
    const second = confirmMissing(first.missing, ['b', 'c']);
    expect(second.confirmed).toEqual(['b']);
    expect([...second.missing].sort()).toEqual(['b', 'c']);
    const third = confirmMissing(confirmMissing(second.missing, []).missing, ['c']);
    expect(third.confirmed).toEqual([]);
  });
});

const idArb = fc.constantFrom('i-1', 'i-2', 'i-3', 'i-4', 'i-5', 'i-6');
const timeArb = fc.integer({ min: now - 120_000, max: now + 10_000 });
const instanceArb = fc
  .record({
    id: idArb,
    createdAt: timeArb,
    terminating: fc.boolean(),
    owner: fc.option(fc.constantFrom('a', 'b', 'c'), { nil: undefined }),
  })
  .map(({ id, createdAt, terminating, owner }) =>
    instance(id, { createdAt, terminating, ...(owner !== undefined ? { nodeClaimName: owner } : {}) }),
  );
const claimArb = fc
  .record({
    name: fc.constantFrom('a', 'b', 'c', 'd'),
    id: fc.option(idArb, { nil: undefined }),
    createdAt: timeArb,
    deleting: fc.boolean(),
    nodeReady: fc.boolean(),
  })
  .map(({ name, id, ...rest }) => claim(name, id, rest));
const listingArb: fc.Arbitrary<InstanceListing> = fc.oneof(
  fc.array(instanceArb, { maxLength: 8 }).map((instances) => ({ kind: 'complete' as const, instances })),
  fc.constant({ kind: 'failed' as const, reason: 'error' }),
  fc.constant({ kind: 'partial' as const, reason: 'page' }),
);

describe('decideGarbageCollection properties', () => {
  it('never deletes anything when the listing is not complete', () => {
    fc.assert(
      fc.property(listingArb, fc.array(claimArb, { maxLength: 6 }), (listing, nodeClaims) => {
        const d = decideGarbageCollection({ listing, nodeClaims, now, gracePeriodMs: grace });
        if (listing.kind !== 'complete') {
          expect(d.leakedInstances).toEqual([]);
          expect(d.suspectNodeClaims).toEqual([]);
        }
      }),
    );
  });

  it('never deletes an instance a NodeClaim owns (by providerID, or by name while its launch is in flight), nor a young or terminating one', () => {
    fc.assert(
      fc.property(listingArb, fc.array(claimArb, { maxLength: 6 }), (listing, nodeClaims) => {
        const d = decideGarbageCollection({ listing, nodeClaims, now, gracePeriodMs: grace });
        for (const leaked of d.leakedInstances) {
          expect(nodeClaims.some((c) => c.providerID === leaked.providerID)).toBe(false);
          // Carrying a NodeClaim's name only protects it while that NodeClaim has no instance recorded yet.
          expect(nodeClaims.some((c) => c.name === leaked.nodeClaimName && c.providerID === undefined)).toBe(false);
          expect(now - leaked.createdAt).toBeGreaterThan(grace);
          expect(leaked.terminating).toBeFalsy();
        }
      }),
    );
  });

  it('never suspects a nodeclaim whose instance is listed, that is deleting, or whose node is Ready', () => {
    fc.assert(
      fc.property(listingArb, fc.array(claimArb, { maxLength: 6 }), (listing, nodeClaims) => {
        const d = decideGarbageCollection({ listing, nodeClaims, now, gracePeriodMs: grace });
        const listed = new Set(listing.kind === 'complete' ? listing.instances.map((i) => i.providerID) : []);
        for (const name of d.suspectNodeClaims) {
          const matching = nodeClaims.filter((c) => c.name === name && c.providerID !== undefined && !listed.has(c.providerID));
          expect(matching.some((c) => !c.deleting && !c.nodeReady)).toBe(true);
        }
      }),
    );
  });

  it('confirmMissing confirms only names missing in both passes', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string()), fc.uniqueArray(fc.string()), (before, after) => {
        const { confirmed } = confirmMissing(new Set(before), after);
        for (const name of confirmed) expect(before.includes(name) && after.includes(name)).toBe(true);
      }),
    );
  });
});
