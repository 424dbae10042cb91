import { describe, expect, it } from 'vitest';
import { decideClaimResources, type ClaimResourceView } from '../../../../src/domain/termination/index.js';

const grace = 30_000;
const orphan: ClaimResourceView = { id: 'fgpu-1', nodeClaimName: 'gone', attached: false };

function decide(resources: ClaimResourceView[], seen: [string, number][] = [], now = 100_000, claims: string[] = ['alive']) {
  return decideClaimResources({ resources, nodeClaimNames: new Set(claims), orphanedSince: new Map(seen), now, gracePeriodMs: grace });
}

describe('decideClaimResources', () => {
  it.each([
    ['first seen orphaned: remembered, not collected', [orphan], [], [], [['fgpu-1', 100_000]]],
    ['orphaned for less than the grace period: kept', [orphan], [['fgpu-1', 100_000 - grace + 1]], [], [['fgpu-1', 100_000 - grace + 1]]],
    ['orphaned for the grace period: collected', [orphan], [['fgpu-1', 100_000 - grace]], ['fgpu-1'], []],
    ['its NodeClaim exists: never an orphan, sighting dropped', [{ ...orphan, nodeClaimName: 'alive' }], [['fgpu-1', 0]], [], []],
    ['attached to an instance: never an orphan', [{ ...orphan, attached: true }], [['fgpu-1', 0]], [], []],
    ['no longer listed: sighting dropped', [], [['fgpu-1', 0]], [], []],
  ] as [string, ClaimResourceView[], [string, number][], string[], [string, number][]][])(
    '%s',
    (_case, resources, seen, collected, remembered) => {
      const decision = decide(resources, seen);
      expect(decision.collect.map((r) => r.id)).toEqual(collected);
      expect([...decision.orphanedSince]).toEqual(remembered);
    },
  );
});
