import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { IdGenerator } from '../../../src/testbed/emulators/ovhcloud/ids.js';
import { DEFAULT_TIMINGS, isLive, nodeStatus, poolStatus } from '../../../src/testbed/emulators/ovhcloud/lifecycle.js';
import { OvhStore, type PoolDraft } from '../../../src/testbed/emulators/ovhcloud/store.js';
import { EMPTY_TEMPLATE } from '../../../src/testbed/emulators/ovhcloud/pool-template.js';
import { DEFAULT_AUTOSCALING } from '../../../src/testbed/emulators/ovhcloud/pool-create-body.js';

const draft: PoolDraft = {
  clusterId: 'k',
  projectId: 'p',
  name: 'pool',
  flavor: 'b3-8',
  availabilityZones: ['eu-west-par-a'],
  desiredNodes: 1,
  minNodes: 0,
  maxNodes: 100,
  autoscale: false,
  autoscaling: DEFAULT_AUTOSCALING,
  monthlyBilled: false,
  antiAffinity: false,
  attachFloatingIps: { enabled: false },
  template: EMPTY_TEMPLATE,
};

const launches = (now: number, count: number) => ({ now, failures: Array.from({ length: count }, () => undefined) });

describe('ovhcloud emulator scaling rules (store, pure)', () => {
  it('keeps exactly desiredNodes live nodes and removes the newest nodes first', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 1, maxLength: 15 }), (sizes) => {
        const store = new OvhStore(new IdGenerator(1), DEFAULT_TIMINGS);
        let now = 1_000;
        const pool = store.createPool(draft, launches(now, 1), { consistencyMs: 0, nodeListingMs: 0 });
        for (const size of sizes) {
          now += 1_000;
          const live = store.nodesOf(pool.id).filter(isLive);
          const survivorsExpected = [...live].slice(0, size).map((n) => n.id);
          store.resize(pool, size, [], launches(now, Math.max(0, size - live.length)));
          const after = store.nodesOf(pool.id).filter(isLive);
          expect(after).toHaveLength(size);
          if (size <= live.length) expect(after.map((n) => n.id)).toEqual(survivorsExpected);
        }
      }),
    );
  });

  it.each([
    [0, 'INSTALLING', 'INSTALLING'],
    [1_500, 'INSTALLING', 'INSTALLING'],
    [4_000, 'READY', 'READY'],
  ])('moves pool and node statuses with the clock (t+%i ms → node %s, pool %s)', (elapsed, node, pool) => {
    const store = new OvhStore(new IdGenerator(2), DEFAULT_TIMINGS);
    const created = store.createPool(draft, launches(0, 1), { consistencyMs: 0, nodeListingMs: 0 });
    const [first] = store.nodesOf(created.id);
    expect(first && nodeStatus(first, elapsed)).toBe(node);
    expect(poolStatus(created, store.nodesOf(created.id), elapsed)).toBe(pool);
  });

  it('prefers the named nodes when removing', () => {
    const store = new OvhStore(new IdGenerator(3), DEFAULT_TIMINGS);
    const pool = store.createPool({ ...draft, desiredNodes: 3 }, launches(0, 3), { consistencyMs: 0, nodeListingMs: 0 });
    const [oldest] = store.nodesOf(pool.id);
    store.resize(pool, 2, oldest ? [oldest] : [], launches(10, 0));
    expect(
      store
        .nodesOf(pool.id)
        .filter(isLive)
        .map((n) => n.id),
    ).not.toContain(oldest?.id);
    expect(store.nodesOf(pool.id).filter(isLive)).toHaveLength(2);
  });
});
