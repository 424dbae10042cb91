import { describe, expect, it } from 'vitest';
import { heldNominations, nominationsOf, type NominationTarget } from '../../../../src/domain/provisioning/index.js';

const target = (name: string, nodeClaim: string, extra: Partial<NominationTarget> = {}): NominationTarget => ({
  name,
  nodeClaim,
  markedForDeletion: false,
  ...extra,
});

describe('heldNominations', () => {
  it('holds a waiting pod on its in-flight NodeClaim, by the name the simulation knows it under', () => {
    const held = heldNominations(new Map([['ns/a', 'claim-a']]), new Set(['ns/a']), [target('node-1', 'claim-a')]);
    expect(held.forSolve).toEqual({ 'ns/a': 'node-1' });
    expect([...held.kept]).toEqual([['ns/a', 'claim-a']]);
  });

  it('drops nominations of pods no longer waiting and of claims deleting or gone', () => {
    const nominations = new Map([
      ['ns/bound', 'claim-a'],
      ['ns/deleting', 'claim-c'],
      ['ns/gone', 'claim-d'],
    ]);
    const waiting = new Set(['ns/deleting', 'ns/gone']);
    const targets = [target('claim-a', 'claim-a'), target('claim-c', 'claim-c', { markedForDeletion: true })];
    const held = heldNominations(nominations, waiting, targets);
    expect(held.forSolve).toEqual({});
    expect(held.kept.size).toBe(0);
  });

  it('keeps a waiting pod on a claim whose Node is initialized: kube-scheduler has not bound it yet', () => {
    const held = heldNominations(new Map([['ns/a', 'claim-b']]), new Set(['ns/a']), [target('node-b', 'claim-b')]);
    expect(held.forSolve).toEqual({ 'ns/a': 'node-b' });
  });
});

describe('nominationsOf', () => {
  it('records the NodeClaim behind each node a pass placed pods on, not nodes without one or being deleted', () => {
    const out = nominationsOf(
      [
        { node: 'node-1', pods: ['ns/a', 'ns/b'] },
        { node: 'node-2', pods: ['ns/c'] },
        { node: 'plain', pods: ['ns/d'] },
      ],
      [target('node-1', 'claim-1'), target('node-2', 'claim-2', { markedForDeletion: true })],
    );
    expect([...out]).toEqual([
      ['ns/a', 'claim-1'],
      ['ns/b', 'claim-1'],
    ]);
  });
});
