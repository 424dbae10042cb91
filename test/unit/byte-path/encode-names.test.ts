import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  type ExtenderFilterResult,
  failedNodeMaps,
  ReasonNodeDisrupting,
  ReasonNodeTerminating,
  Verdict,
} from '../../../src/domain/extender/index.js';
import type { NameSpans } from '../../../src/byte-path/index.js';
import { encodeFilterResult, encodeHostPriorityList } from '../../../webhooks/extender/encode.js';
import { encodeFilterOfNames, encodeScoresOfNames, failedNamesInInputOrder } from '../../../src/byte-path/index.js';
import { walkNodeNamesBody } from '../../../webhooks/extender/json-body.js';

/**
 * The names as the extender gets them: spans of a request body, walked by walkNodeNamesBody. The body lies at
 * `offset` of a larger buffer, so the names' words are read at every alignment.
 */
function spansOf(names: readonly string[], offset = 0, space?: number): NameSpans {
  const text = Buffer.from(JSON.stringify({ Pod: { metadata: { name: 'p' } }, Nodes: null, NodeNames: names }, null, space));
  const bytes = Buffer.concat([Buffer.alloc(offset, 0x20), text]).subarray(offset);
  const walked = walkNodeNamesBody(bytes);
  if (!walked) throw new Error(`walkNodeNamesBody refused ${bytes.toString('latin1')}`);
  expect(walked.names.count).toBe(names.length);
  return walked.names;
}

/** A slot per distinct name (the index of its first occurrence), as the view gives one slot per node. */
function slotsOf(names: readonly string[]): Int32Array {
  return Int32Array.from(names, (name) => names.indexOf(name));
}

/** The answer the general path sends for the same verdicts, names as strings. */
function filterResult(names: readonly string[], verdicts: Uint8Array): ExtenderFilterResult {
  const { failed, unresolvable } = failedNodeMaps(verdicts, (i) => names[i] as string);
  return {
    Nodes: null,
    NodeNames: names.filter((_, i) => verdicts[i] === Verdict.Keep),
    FailedNodes: failed,
    FailedAndUnresolvableNodes: unresolvable,
    Error: '',
  };
}

/** The condition the fast filter answer relies on: no failed name is all digits (vacuously: the empty name), none fails twice. */
function failedInOrder(names: readonly string[], verdicts: Uint8Array): boolean {
  const failed = names.filter((_, i) => verdicts[i] !== Verdict.Keep);
  return failed.every((name) => !/^[0-9]*$/.test(name)) && new Set(failed).size === failed.length;
}

// Plain names (every Kubernetes node name): MKS- and AWS-shaped, short, all digits (array indexes as object keys,
// and "007", which is not one), any printable ASCII but quote and backslash, lengths around a word's.
const plainByte = fc.integer({ min: 0x20, max: 0x7e }).filter((byte) => byte !== 0x22 && byte !== 0x5c);
const plainName = fc.oneof(
  fc.stringMatching(/^[a-z0-9]([-a-z0-9.]{0,62}[a-z0-9])?$/),
  fc.stringMatching(/^[0-9]{1,5}$/),
  fc.constantFrom('', '0', '123', '007', 'abc', 'abcd', 'abcde', 'ip-10-0-1-23.eu-west-2.compute.internal', 'x'.repeat(63)),
  fc.array(plainByte, { maxLength: 70 }).map((bytes) => String.fromCharCode(...bytes)),
);
/** Names with duplicates: drawn from a small pool. */
const nameList = fc.oneof(
  fc.array(plainName, { maxLength: 40 }),
  fc.uniqueArray(plainName, { minLength: 1, maxLength: 6 }).chain((pool) => fc.array(fc.constantFrom(...pool), { maxLength: 40 })),
);
const layout = fc.record({ offset: fc.nat({ max: 7 }), space: fc.constantFrom(undefined, 0, 1, 2) });

describe('encodeScoresOfNames', () => {
  it.each<[string, string[], number[]]>([
    ['no names', [], []],
    ['scores 0 and 10', ['node-a', 'node-b'], [0, 10]],
    ['every score 10', ['a', 'bb', 'ccc', 'dddd', 'eeeee'], [10, 10, 10, 10, 10]],
    ['every score 0..10', Array.from({ length: 11 }, (_, i) => `node-${i}`), Array.from({ length: 11 }, (_, i) => i)],
    ['all-digit, empty and repeated names', ['123', '0', '007', '', '123'], [1, 2, 3, 4, 5]],
  ])('writes %s exactly as encodeHostPriorityList and JSON.stringify', (_label, names, scores) => {
    const list = names.map((Host, i) => ({ Host, Score: scores[i] as number }));
    const encoded = encodeScoresOfNames(spansOf(names, 3), Uint8Array.from(scores));
    expect(encoded.toString('latin1')).toBe(JSON.stringify(list));
    expect(encoded.equals(encodeHostPriorityList(list))).toBe(true);
  });

  it('writes any plain names and scores 0..10 exactly as encodeHostPriorityList (property)', () => {
    fc.assert(
      fc.property(
        nameList.chain((names) =>
          fc.tuple(fc.constant(names), fc.array(fc.integer({ min: 0, max: 10 }), { minLength: names.length, maxLength: names.length })),
        ),
        layout,
        ([names, scores], { offset, space }) => {
          const list = names.map((Host, i) => ({ Host, Score: scores[i] as number }));
          const encoded = encodeScoresOfNames(spansOf(names, offset, space), Uint8Array.from(scores));
          expect(encoded.toString('latin1')).toBe(encodeHostPriorityList(list).toString('latin1'));
          expect(encoded.equals(encodeHostPriorityList(list))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('failedNamesInInputOrder and encodeFilterOfNames', () => {
  const { Keep, Failed, Unresolvable } = Verdict;

  it.each<[string, string[], number[]]>([
    ['no names', [], []],
    ['all kept', ['node-a', 'node-b', '123'], [Keep, Keep, Keep]],
    ['all failed', ['node-a', 'node-b', 'node-c'], [Failed, Unresolvable, Failed]],
    ['kept and failed mixed', ['a', 'b', 'c', 'd', 'e'], [Unresolvable, Keep, Failed, Keep, Unresolvable]],
    ['a kept name that also fails', ['a', 'a', 'b'], [Keep, Failed, Keep]],
    ['kept all-digit names', ['10', '2', 'x'], [Keep, Keep, Failed]],
  ])('writes %s exactly as encodeFilterResult and JSON.stringify', (_label, names, verdictList) => {
    const verdicts = Uint8Array.from(verdictList);
    const spans = spansOf(names, 1);
    expect(failedNamesInInputOrder(spans, slotsOf(names), verdicts, names.length)).toBe(true);
    const expected = filterResult(names, verdicts);
    const encoded = encodeFilterOfNames(spans, verdicts);
    expect(encoded.toString('latin1')).toBe(JSON.stringify(expected));
    expect(encoded.equals(encodeFilterResult(expected))).toBe(true);
  });

  it('spells the reasons of filter.ts', () => {
    const encoded = encodeFilterOfNames(spansOf(['a', 'b', 'c']), Uint8Array.of(Keep, Failed, Unresolvable));
    expect(JSON.parse(encoded.toString('latin1'))).toEqual({
      Nodes: null,
      NodeNames: ['a'],
      FailedNodes: { b: ReasonNodeDisrupting },
      FailedAndUnresolvableNodes: { c: ReasonNodeTerminating },
      Error: '',
    });
  });

  it.each<[string, string[], number[]]>([
    ['a failed all-digit name (an array index: objects list it first)', ['zeta', '10'], [Failed, Failed]],
    ['an unresolvable all-digit name', ['a', '0'], [Keep, Unresolvable]],
    ['a failed name that fails twice', ['a', 'b', 'a'], [Failed, Keep, Failed]],
    ['a name failed and unresolvable', ['a', 'a'], [Failed, Unresolvable]],
  ])('refuses input order for %s', (_label, names, verdictList) => {
    expect(failedNamesInInputOrder(spansOf(names), slotsOf(names), Uint8Array.from(verdictList), names.length)).toBe(false);
  });

  it('refuses input order for failed names that share a slot, whatever their bytes', () => {
    // The slot says which node a name is: two spans of one node are one key.
    const names = ['a', 'b'];
    expect(failedNamesInInputOrder(spansOf(names), Int32Array.of(0, 0), Uint8Array.of(Failed, Failed), 1)).toBe(false);
  });

  it('accepts input order exactly when no failed name is all digits and no failed name comes twice, and then writes encodeFilterResult bytes (property)', () => {
    const verdict = fc.constantFrom(Keep, Failed, Unresolvable);
    let accepted = 0;
    fc.assert(
      fc.property(
        nameList.chain((names) => fc.tuple(fc.constant(names), fc.array(verdict, { minLength: names.length, maxLength: names.length }))),
        layout,
        ([names, verdictList], { offset, space }) => {
          const verdicts = Uint8Array.from(verdictList);
          const spans = spansOf(names, offset, space);
          const inOrder = failedNamesInInputOrder(spans, slotsOf(names), verdicts, names.length);
          expect(inOrder).toBe(failedInOrder(names, verdicts));
          if (!inOrder) return;
          accepted++;
          const expected = filterResult(names, verdicts);
          const encoded = encodeFilterOfNames(spans, verdicts);
          expect(encoded.toString('latin1')).toBe(encodeFilterResult(expected).toString('latin1'));
          expect(encoded.equals(encodeFilterResult(expected))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
    expect(accepted).toBeGreaterThan(30);
  });

  it('where input order is accepted, the fast answer is what JSON.stringify writes of the general answer (property)', () => {
    // Few failed names, none all digits, each failing once: the case the fast path serves.
    const distinctNames = fc.uniqueArray(
      plainName.filter((name) => !/^[0-9]*$/.test(name)),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(
        distinctNames.chain((names) =>
          fc.tuple(
            fc.constant(names),
            fc.array(fc.constantFrom(Keep, Keep, Keep, Failed, Unresolvable), { minLength: names.length, maxLength: names.length }),
          ),
        ),
        ([names, verdictList]) => {
          const verdicts = Uint8Array.from(verdictList);
          const spans = spansOf(names);
          expect(failedNamesInInputOrder(spans, slotsOf(names), verdicts, names.length)).toBe(true);
          expect(encodeFilterOfNames(spans, verdicts).toString('latin1')).toBe(JSON.stringify(filterResult(names, verdicts)));
        },
      ),
      { numRuns: 200 },
    );
  });
});
