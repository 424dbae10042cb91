import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ExtenderArgsError, filter, prioritize } from '../../../../src/domain/extender/index.js';
import { decodeExtenderArgs } from '../../../../webhooks/extender/decode.js';

const pod = { metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'c' }] } };

describe('decodeExtenderArgs', () => {
  it('accepts the capitalised names the scheduler sends', () => {
    const args = decodeExtenderArgs({ Pod: pod, Nodes: null, NodeNames: ['a', 'b'] });
    expect(args.NodeNames).toEqual(['a', 'b']);
    expect(args.Nodes).toBeNull();
  });

  it('matches field names case-insensitively, as Go does', () => {
    const args = decodeExtenderArgs({ pod, nodes: { items: [{ metadata: { name: 'a' } }] } });
    expect(args.Nodes?.items.map((n) => n.metadata?.name)).toEqual(['a']);
    expect(args.NodeNames).toBeNull();
  });

  it.each([
    ['a non-object body', 'x', 'body is a string'],
    ['an array body', [], 'body is an array'],
    ['no Pod', { NodeNames: [] }, 'Pod is missing'],
    ['a Pod that is a number', { Pod: 3, NodeNames: [] }, 'Pod is a number'],
    ['containers that are not an array', { Pod: { spec: { containers: 'c' } }, NodeNames: [] }, 'Pod.spec.containers is a string'],
    [
      'requests that are a list',
      { Pod: { spec: { containers: [{ resources: { requests: [] } }] } }, NodeNames: [] },
      'Pod.spec.containers[0].resources.requests is an array',
    ],
    ['neither Nodes nor NodeNames', { Pod: pod }, 'neither Nodes nor NodeNames'],
    ['NodeNames with a number', { Pod: pod, NodeNames: ['a', 1] }, 'NodeNames[1] is a number'],
    ['Nodes.items not an array', { Pod: pod, Nodes: { items: {} } }, 'Nodes.items is an object'],
    ['a node without a name', { Pod: pod, Nodes: { items: [{ metadata: {} }] } }, 'Nodes.items[0].metadata.name is missing'],
    [
      'taints that are an object',
      { Pod: pod, Nodes: { items: [{ metadata: { name: 'a' }, spec: { taints: {} } }] } },
      'Nodes.items[0].spec.taints is an object',
    ],
  ])('rejects %s with a message naming the field', (_label, body, message) => {
    expect(() => decodeExtenderArgs(body)).toThrow(ExtenderArgsError);
    expect(() => decodeExtenderArgs(body)).toThrow(message);
  });

  it('either decodes or throws ExtenderArgsError on any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), fc.jsonValue(), (p, nodes, names) => {
        try {
          decodeExtenderArgs({ Pod: p, Nodes: nodes, NodeNames: names });
        } catch (error) {
          expect(error).toBeInstanceOf(ExtenderArgsError);
        }
      }),
    );
  });
});

describe('decoded args are always usable', () => {
  it('filter and prioritize never throw on anything decodeExtenderArgs accepts', () => {
    const quantity = fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.integer(),
      fc.double(),
      fc.constantFrom('1', '500m', '2Gi', '-1', '1e400', '0.0000000001'),
    );
    const container = fc.record({
      resources: fc.record(
        {
          requests: fc.dictionary(fc.constantFrom('cpu', 'memory', 'pods', 'nvidia.com/gpu'), quantity),
          limits: fc.dictionary(fc.constantFrom('cpu', 'memory'), quantity),
        },
        { requiredKeys: [] },
      ),
    });
    const podArb = fc.record(
      {
        metadata: fc.record({ name: fc.string(), namespace: fc.string() }, { requiredKeys: [] }),
        spec: fc.record(
          {
            containers: fc.array(container, { maxLength: 3 }),
            initContainers: fc.array(container, { maxLength: 2 }),
            overhead: fc.dictionary(fc.constantFrom('cpu', 'memory'), quantity),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    );
    const nodeArb = fc.record({
      metadata: fc.record({ name: fc.string({ maxLength: 4 }), deletionTimestamp: fc.option(fc.string()) }),
      status: fc.record({ allocatable: fc.dictionary(fc.constantFrom('cpu', 'memory', 'pods'), quantity) }),
    });
    fc.assert(
      fc.property(
        podArb,
        fc.option(fc.record({ items: fc.array(nodeArb, { maxLength: 5 }) }), { nil: null }),
        fc.array(fc.string({ maxLength: 4 }), { maxLength: 5 }),
        (pod, nodes, names) => {
          const args = decodeExtenderArgs({ Pod: pod, Nodes: nodes, NodeNames: nodes ? null : names });
          const view = new Map();
          const kept = filter(args, view).result;
          expect(kept.Nodes?.items.length ?? kept.NodeNames?.length ?? 0).toBeGreaterThanOrEqual(0);
          for (const h of prioritize(args, view)) expect(h.Score >= 0 && h.Score <= 10).toBe(true);
        },
      ),
    );
  });
});
