import { describe, expect, it } from 'vitest';
import type { NodeClaim } from '../../../../src/apis/v1/nodeclaim.js';
import { terminationDeadlineOf } from '../../../../src/domain/termination/index.js';

function nodeClaim(annotations: Record<string, string> = {}, extra: { deletedAt?: string; tgp?: string } = {}): NodeClaim {
  return {
    metadata: { name: 'nc', annotations, ...(extra.deletedAt ? { deletionTimestamp: extra.deletedAt as unknown as Date } : {}) },
    spec: {
      nodeClassRef: { group: 'g', kind: 'K', name: 'n' },
      requirements: [],
      ...(extra.tgp ? { terminationGracePeriod: extra.tgp } : {}),
    },
  };
}

describe('terminationDeadlineOf', () => {
  it.each([
    ['no TGP: no deadline', nodeClaim({}, { deletedAt: '2026-01-01T00:00:00Z' }), undefined],
    ['deletionTimestamp + TGP', nodeClaim({}, { deletedAt: '2026-01-01T00:00:00Z', tgp: '1h30m' }), Date.UTC(2026, 0, 1, 1, 30)],
    [
      'the annotation wins',
      nodeClaim(
        { 'karpenter.sh/nodeclaim-termination-timestamp': '2026-01-01T00:10:00Z' },
        { deletedAt: '2026-01-01T00:00:00Z', tgp: '1h' },
      ),
      Date.UTC(2026, 0, 1, 0, 10),
    ],
    ['not deleted yet', nodeClaim({}, { tgp: '1h' }), undefined],
  ] as const)('%s', (_what, claim, expected) => {
    expect(terminationDeadlineOf(claim)).toBe(expected);
  });

  it('names the field on a malformed TGP', () => {
    expect(() => terminationDeadlineOf(nodeClaim({}, { deletedAt: '2026-01-01T00:00:00Z', tgp: 'soon' }))).toThrow(
      /spec\.terminationGracePeriod/,
    );
  });
});
