import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideNodeClassFinalizers, type NodeClassFinalizerView } from '../../../../src/domain/termination/index.js';

const F = 'karpenter-eu.io/nodeclass-in-use';
const view = (name: string, finalizers: string[], deleting = false, kind = 'ScalewayNodeClass'): NodeClassFinalizerView => ({
  kind,
  name,
  finalizers,
  deleting,
});

describe('NodeClass in-use finalizer decisions', () => {
  it.each<[string, NodeClassFinalizerView, { kind: string; name: string }[], string[]]>([
    ['a live NodeClass without it gets it', view('a', []), [], ['add']],
    ['a live NodeClass with it keeps it', view('a', [F]), [], []],
    ['a deleted NodeClass that NodeClaims still reference keeps it', view('a', [F], true), [{ kind: 'ScalewayNodeClass', name: 'a' }], []],
    [
      'a deleted NodeClass no NodeClaim references loses it',
      view('a', [F, 'other'], true),
      [{ kind: 'ScalewayNodeClass', name: 'b' }],
      ['remove'],
    ],
    [
      'a reference to another kind of the same name does not hold it',
      view('a', [F], true),
      [{ kind: 'OVHNodeClass', name: 'a' }],
      ['remove'],
    ],
    ['a deleted NodeClass without it is left alone (never re-added)', view('a', [], true), [], []],
  ])('%s', (_name, nodeClass, references, expected) => {
    expect(decideNodeClassFinalizers([nodeClass], references, F).map((a) => a.action)).toEqual(expected);
  });

  it('never removes the finalizer of a NodeClass some NodeClaim references', () => {
    const arbitraryView = fc.record({
      kind: fc.constantFrom('OVHNodeClass', 'ScalewayNodeClass'),
      name: fc.constantFrom('a', 'b', 'c'),
      finalizers: fc.subarray([F, 'x']),
      deleting: fc.boolean(),
    });
    const arbitraryRef = fc.record({ kind: fc.constantFrom('OVHNodeClass', 'ScalewayNodeClass'), name: fc.constantFrom('a', 'b', 'c') });
    fc.assert(
      fc.property(fc.array(arbitraryView), fc.array(arbitraryRef), (nodeClasses, refs) => {
        for (const action of decideNodeClassFinalizers(nodeClasses, refs, F)) {
          if (action.action === 'remove') expect(refs.some((r) => r.kind === action.kind && r.name === action.name)).toBe(false);
        }
      }),
    );
  });
});
