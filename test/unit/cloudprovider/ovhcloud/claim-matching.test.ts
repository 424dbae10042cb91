import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OvhNode } from '../../../../src/cloudprovider/ovhcloud/api.js';
import { matchPendingClaims } from '../../../../src/cloudprovider/ovhcloud/claim-matching.js';
import type { ClaimRecord } from '../../../../src/cloudprovider/ovhcloud/pool-naming.js';

const T0 = Date.UTC(2026, 0, 1);
function node(id: string, atSeconds: number, status = 'INSTALLING'): OvhNode {
  return {
    id,
    nodePoolId: 'p',
    name: id,
    flavor: 'b3-8',
    instanceId: null,
    status,
    createdAt: new Date(T0 + atSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
}
const pending = (since: number): ClaimRecord => ({ kind: 'pending', since: T0 + since });

describe('matching new pool nodes to pending NodeClaims', () => {
  it('pending claims take the unbound nodes in creation order', () => {
    const records = new Map<string, ClaimRecord>([
      ['b', pending(2_000)],
      ['a', pending(1_000)],
      ['old', { kind: 'node', nodeId: 'n0' }],
    ]);
    const nodes = [node('n2', 2), node('n1', 1), node('n0', 0)];
    expect(matchPendingClaims(records, nodes)).toEqual(
      new Map([
        ['a', 'n1'],
        ['b', 'n2'],
      ]),
    );
  });

  it('skips nodes older than the claim and nodes being deleted; a claim without a node yet gets none', () => {
    const records = new Map<string, ClaimRecord>([
      ['a', pending(60_000)],
      ['b', pending(61_000)],
    ]);
    const nodes = [node('stale', 0), node('going', 60, 'DELETING'), node('fresh', 60)];
    expect(matchPendingClaims(records, nodes)).toEqual(new Map([['a', 'fresh']]));
  });

  it('tolerates the API’s second precision (a node may look slightly older than its request)', () => {
    const records = new Map<string, ClaimRecord>([['a', pending(1_900)]]);
    expect(matchPendingClaims(records, [node('n', 1)])).toEqual(new Map([['a', 'n']]));
  });

  it('never gives one node to two claims, nor a bound node to a pending claim', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(100), { maxLength: 12 }),
        fc.array(fc.nat(100), { maxLength: 12 }),
        fc.nat(5),
        (claimTimes, nodeTimes, boundCount) => {
          const records = new Map<string, ClaimRecord>(claimTimes.map((t, i) => [`c${i}`, pending(t * 1000)]));
          for (let i = 0; i < Math.min(boundCount, nodeTimes.length); i++) records.set(`b${i}`, { kind: 'node', nodeId: `n${i}` });
          const matched = matchPendingClaims(
            records,
            nodeTimes.map((t, i) => node(`n${i}`, t)),
          );
          const ids = [...matched.values()];
          expect(new Set(ids).size).toBe(ids.length);
          for (const id of ids) expect([...records.values()].some((r) => r.kind === 'node' && r.nodeId === id)).toBe(false);
        },
      ),
    );
  });
});
