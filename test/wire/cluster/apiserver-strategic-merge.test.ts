import { describe, expect, it } from 'vitest';
import { type JsonObject, type JsonValue } from '../../../src/util/json-patch.js';
import { applyStrategicMergePatch } from '../../../src/testbed/cluster/apiserver/strategic-merge.js';
import { labelSelectorQuery } from '../../../src/testbed/cluster/apiserver/label-selector.js';

const podDoc: JsonObject = {
  metadata: { finalizers: ['a'], labels: { x: '1' } },
  spec: {
    containers: [
      { name: 'app', image: 'v1', env: [{ name: 'A', value: '1' }] },
      { name: 'side', image: 's1' },
    ],
    tolerations: [{ key: 't1' }],
  },
  status: {
    conditions: [
      { type: 'Ready', status: 'False' },
      { type: 'PodScheduled', status: 'True' },
    ],
  },
};

describe('strategic merge patch (built-in kinds)', () => {
  it.each<[string, JsonValue, (r: JsonObject) => unknown, unknown]>([
    [
      'merges containers by name',
      { spec: { containers: [{ name: 'app', image: 'v2' }] } },
      (r) => (r.spec as JsonObject).containers,
      [
        { name: 'app', image: 'v2', env: [{ name: 'A', value: '1' }] },
        { name: 'side', image: 's1' },
      ],
    ],
    [
      'merges env by name inside a container',
      { spec: { containers: [{ name: 'app', env: [{ name: 'B', value: '2' }] }] } },
      (r) => ((r.spec as { containers: JsonObject[] }).containers[0] as JsonObject).env,
      [
        { name: 'A', value: '1' },
        { name: 'B', value: '2' },
      ],
    ],
    [
      'deletes a list element with $patch: delete',
      { spec: { containers: [{ name: 'side', $patch: 'delete' }] } },
      (r) => ((r.spec as JsonObject).containers as JsonObject[]).map((c) => c.name),
      ['app'],
    ],
    [
      'merges conditions by type',
      { status: { conditions: [{ type: 'Ready', status: 'True' }] } },
      (r) => (r.status as JsonObject).conditions,
      [
        { type: 'Ready', status: 'True' },
        { type: 'PodScheduled', status: 'True' },
      ],
    ],
    ['unions finalizers', { metadata: { finalizers: ['b', 'a'] } }, (r) => (r.metadata as JsonObject).finalizers, ['a', 'b']],
    [
      'removes from a primitive list',
      { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } },
      (r) => (r.metadata as JsonObject).finalizers,
      [],
    ],
    [
      'replaces atomic lists (tolerations)',
      { spec: { tolerations: [{ key: 't2' }] } },
      (r) => (r.spec as JsonObject).tolerations,
      [{ key: 't2' }],
    ],
    [
      'replaces a list with $patch: replace',
      { status: { conditions: [{ $patch: 'replace' }, { type: 'Only', status: 'True' }] } },
      (r) => (r.status as JsonObject).conditions,
      [{ type: 'Only', status: 'True' }],
    ],
    ['deletes map keys with null', { metadata: { labels: { x: null, y: '2' } } }, (r) => (r.metadata as JsonObject).labels, { y: '2' }],
    [
      'replaces a map with $patch: replace',
      { metadata: { labels: { $patch: 'replace', z: '3' } } },
      (r) => (r.metadata as JsonObject).labels,
      { z: '3' },
    ],
  ])('%s', (_name, patch, pick, expected) => {
    const before = structuredClone(podDoc);
    const cleaned = JSON.parse(JSON.stringify(patch)) as JsonValue;
    expect(pick(applyStrategicMergePatch(podDoc, cleaned, 'Pod'))).toEqual(expected);
    expect(podDoc).toEqual(before);
  });

  it('rejects a merge-keyed element without its key', () => {
    expect(() => applyStrategicMergePatch(podDoc, { spec: { containers: [{ image: 'x' }] } }, 'Pod')).toThrow(/merge key "name"/);
  });
});

describe('label selector strings', () => {
  it.each([
    ['a=1,b!=2', { a: '1', b: '3' }, true],
    ['a=1,b!=2', { a: '1', b: '2' }, false],
    ['a in (1,2),!c', { a: '2' }, true],
    ['a notin (1)', {}, true],
    ['a,b', { a: '', b: 'x' }, true],
    ['karpenter.sh/nodepool', { 'karpenter.sh/nodepool': 'default' }, true],
  ])('%s on %j → %s', (selector, labels, expected) => {
    expect(labelSelectorQuery(selector).matches(labels)).toBe(expected);
  });
});
