import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { exceededLimits, remainingLimits, usageAsResourceList } from '../../../../src/domain/nodepool/index.js';
import { LimitLedger } from '../../../../src/domain/provisioning/index.js';

describe('LimitLedger', () => {
  it('counts open reservations as resources and as nodes until state shows the NodeClaim', () => {
    const ledger = new LimitLedger(60_000);
    ledger.reserve({ id: 'r1', nodePool: 'default', resources: { cpu: 4000 }, reservedAt: 0 });
    ledger.reserve({ id: 'r2', nodePool: 'other', resources: { cpu: 2000 }, reservedAt: 0 });
    expect(ledger.effectiveUsage('default', { resources: { cpu: 1000 }, nodes: 1 }, new Set())).toEqual({
      resources: { cpu: 5000 },
      nodes: 2,
    });
    ledger.nameReservation('r1', 'default-abc');
    // State shows the claim (as a node, no capacity yet): the node is not counted twice.
    expect(ledger.effectiveUsage('default', { resources: { cpu: 1000 }, nodes: 2 }, new Set(['default-abc']))).toEqual({
      resources: { cpu: 5000 },
      nodes: 2,
    });
    // State now has its capacity: the reservation is settled.
    ledger.reconcile([{ name: 'default-abc', hasCapacity: true }], 1_000);
    expect(ledger.effectiveUsage('default', { resources: { cpu: 5000 }, nodes: 2 }, new Set(['default-abc']))).toEqual({
      resources: { cpu: 5000 },
      nodes: 2,
    });
    expect(ledger.size).toBe(1);
  });

  it('drops a named reservation state never showed once it is stale, and never an unnamed one', () => {
    const ledger = new LimitLedger(60_000);
    ledger.reserve({ id: 'named', nodePool: 'p', resources: { cpu: 1000 }, reservedAt: 0 });
    ledger.nameReservation('named', 'p-1');
    ledger.reserve({ id: 'creating', nodePool: 'p', resources: { cpu: 1000 }, reservedAt: 0 });
    ledger.reconcile([], 30_000);
    expect(ledger.size).toBe(2);
    ledger.reconcile([], 60_001);
    expect(ledger.size).toBe(1);
    expect(ledger.nodeClaimNames()).toEqual(new Set());
  });

  it('never lets sequential reserve-then-check exceed a limit (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), fc.array(fc.integer({ min: 1, max: 16 }), { maxLength: 40 }), (limitCpu, sizes) => {
        const ledger = new LimitLedger();
        const limits = { cpu: limitCpu * 1000 };
        sizes.forEach((cpu, i) => {
          const add = { cpu: cpu * 1000 };
          const usage = ledger.effectiveUsage('p', undefined, new Set());
          if (exceededLimits(remainingLimits(limits, usageAsResourceList(usage)), add).length === 0)
            ledger.reserve({ id: `r${i}`, nodePool: 'p', resources: add, reservedAt: 0 });
        });
        const total = ledger.effectiveUsage('p', undefined, new Set());
        expect(total.resources.cpu ?? 0).toBeLessThanOrEqual(limits.cpu);
        expect(usageAsResourceList(total).nodes).toBe(ledger.size);
      }),
    );
  });
});
