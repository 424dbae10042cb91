import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  filter,
  ReasonNodeDisrupting,
  ReasonNodeTerminating,
  type ExtenderArgs,
  type ExtenderNode,
  type ExtenderNodeState,
} from '../../../../src/domain/extender/index.js';
import { daemonSetPod, nodeObject, pod, stateNode } from './fixtures.js';

const states: ExtenderNodeState[] = ['ok', 'disrupting', 'terminating', 'consolidation-candidate', 'drifted'];

function namesArgs(names: string[], p = pod({ cpu: '100m' })): ExtenderArgs {
  return { Pod: p, Nodes: null, NodeNames: names };
}

describe('filter (NodeNames mode)', () => {
  const view = new Map<string, ExtenderNode>(states.map((s) => [`n-${s}`, stateNode(s)]));

  it.each([
    ['ok', true, undefined],
    ['consolidation-candidate', true, undefined],
    ['drifted', true, undefined],
    ['disrupting', false, 'failed'],
    ['terminating', false, 'unresolvable'],
  ] as const)('a %s node is kept=%s', (state, kept, failedAs) => {
    const { result } = filter(namesArgs([`n-${state}`]), view);
    expect(result.NodeNames?.includes(`n-${state}`)).toBe(kept);
    expect(result.Nodes).toBeNull();
    expect(result.Error).toBe('');
    if (failedAs === 'failed') expect(result.FailedNodes).toEqual({ [`n-${state}`]: ReasonNodeDisrupting });
    if (failedAs === 'unresolvable') expect(result.FailedAndUnresolvableNodes).toEqual({ [`n-${state}`]: ReasonNodeTerminating });
  });

  it('passes unknown node names through', () => {
    const outcome = filter(namesArgs(['ghost-1', 'n-ok', 'ghost-2']), view);
    expect(outcome.result.NodeNames).toEqual(['ghost-1', 'n-ok', 'ghost-2']);
    expect(outcome.needsCapacity).toBe(false);
  });

  it('signals needsCapacity when every node is taken away', () => {
    const outcome = filter(namesArgs(['n-disrupting', 'n-terminating']), view);
    expect(outcome.result.NodeNames).toEqual([]);
    expect(outcome.needsCapacity).toBe(true);
  });

  it('signals needsCapacity for an empty node list', () => {
    expect(filter(namesArgs([]), view).needsCapacity).toBe(true);
  });

  it('keeps every node for a DaemonSet pod and never signals for it', () => {
    const outcome = filter(namesArgs(['n-disrupting', 'n-terminating'], daemonSetPod()), view);
    expect(outcome.result.NodeNames).toEqual(['n-disrupting', 'n-terminating']);
    expect(outcome.needsCapacity).toBe(false);
  });

  it('passes a pod without requests through', () => {
    const outcome = filter(namesArgs(['n-ok', 'ghost'], pod()), view);
    expect(outcome.result.NodeNames).toEqual(['n-ok', 'ghost']);
  });
});

describe('filter (full Nodes mode)', () => {
  it('derives disrupting from the karpenter.sh/disrupted taint and terminating from deletionTimestamp', () => {
    const args: ExtenderArgs = {
      Pod: pod({ cpu: '1' }),
      Nodes: {
        apiVersion: 'v1',
        kind: 'NodeList',
        items: [
          nodeObject('a'),
          nodeObject('b', { taints: [{ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }] }),
          nodeObject('c', { deleting: true }),
        ],
      },
      NodeNames: null,
    };
    const { result, needsCapacity } = filter(args, new Map());
    expect(result.NodeNames).toBeNull();
    expect(result.Nodes?.kind).toBe('NodeList');
    expect(result.Nodes?.items.map((n) => n.metadata?.name)).toEqual(['a']);
    expect(result.FailedNodes).toEqual({ b: ReasonNodeDisrupting });
    expect(result.FailedAndUnresolvableNodes).toEqual({ c: ReasonNodeTerminating });
    expect(needsCapacity).toBe(false);
  });

  it('uses the view state when the object looks healthy', () => {
    const args: ExtenderArgs = { Pod: pod(), Nodes: { items: [nodeObject('a')] }, NodeNames: null };
    const outcome = filter(args, new Map([['a', stateNode('terminating')]]));
    expect(outcome.result.Nodes?.items).toEqual([]);
    expect(outcome.needsCapacity).toBe(true);
  });
});

describe('filter properties', () => {
  const stateArb = fc.constantFrom(...states);
  const viewArb = fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), stateArb, { maxKeys: 20 });
  const namesArb = (keys: string[]): fc.Arbitrary<string[]> =>
    fc.array(fc.oneof(fc.constantFrom(...(keys.length ? keys : ['x'])), fc.string({ maxLength: 6 })), { maxLength: 30 });

  it('never adds nodes, keeps input order, accounts for every removed node, and is deterministic', () => {
    fc.assert(
      fc.property(
        viewArb.chain((v) => fc.tuple(fc.constant(v), namesArb(Object.keys(v)))),
        ([states, names]) => {
          const view = new Map(Object.entries(states).map(([k, s]) => [k, stateNode(s)]));
          const first = filter(namesArgs(names), view);
          const kept = first.result.NodeNames ?? [];
          expect(kept.every((n) => names.includes(n))).toBe(true);
          expect(kept).toEqual(names.filter((n) => kept.includes(n)));
          for (const n of names) {
            const removed = n in first.result.FailedNodes || n in first.result.FailedAndUnresolvableNodes;
            expect(removed).toBe(!kept.includes(n));
          }
          expect(first.needsCapacity).toBe(kept.length === 0);
          expect(filter(namesArgs(names), view)).toEqual(first);
        },
      ),
    );
  });
});
