import { describe, expect, it } from 'vitest';
import { staleDisruptedTaints, type TaintedNodeFacts } from '../../../../src/domain/disruption/index.js';

const disrupted = { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' };
const node = (name: string, over: Partial<TaintedNodeFacts> = {}): TaintedNodeFacts => ({
  name,
  managed: true,
  markedForDeletion: false,
  taints: [disrupted],
  ...over,
});

describe('staleDisruptedTaints', () => {
  it.each([
    ['a managed node no command holds', [node('a')], ['a']],
    ['a node a command in flight chose (or being deleted)', [node('a', { markedForDeletion: true })], []],
    ['an unmanaged node', [node('a', { managed: false })], []],
    [
      'another taint only',
      [
        node('a', {
          taints: [
            { key: 'karpenter.sh/disrupted', effect: 'NoExecute' },
            { key: 'dedicated', effect: 'NoSchedule' },
          ],
        }),
      ],
      [],
    ],
    ['several, sorted', [node('b'), node('a'), node('c', { markedForDeletion: true })], ['a', 'b']],
  ] as const)('%s', (_label, nodes, expected) => {
    expect(staleDisruptedTaints(nodes)).toEqual(expected);
  });
});
