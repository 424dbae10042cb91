import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseManifests, readManifestPaths } from '../../../src/util/manifest-files.js';

describe('parseManifests', () => {
  it('reads every document of a multi-document stream and names each source', () => {
    const text = 'apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n---\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: b}\n';
    const set = parseManifests(text, 'pods.yaml');
    expect(set.errors).toEqual([]);
    expect(set.objects.map((o) => o.source)).toEqual(['pods.yaml#1', 'pods.yaml#3']);
  });

  it('flattens List kinds', () => {
    const text = JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [
        { apiVersion: 'v1', kind: 'Pod' },
        { apiVersion: 'v1', kind: 'Node' },
      ],
    });
    const set = parseManifests(text, 'list.json');
    expect(set.objects.map((o) => [o.source, o.object.kind])).toEqual([
      ['list.json#1.items[0]', 'Pod'],
      ['list.json#1.items[1]', 'Node'],
    ]);
  });

  it.each([
    ['a scalar', 'just text', 'expected an object'],
    ['a list', '- a\n- b', 'got a list'],
    ['no kind', 'apiVersion: v1\nmetadata: {}', 'missing apiVersion or kind'],
    ['broken YAML', 'kind: [unclosed', 'parsing YAML'],
  ])('reports %s without losing the other documents', (_name, bad, message) => {
    const set = parseManifests(`${bad}\n---\napiVersion: v1\nkind: Pod\n`, 'x.yaml');
    expect(set.errors).toHaveLength(1);
    expect(set.errors[0]?.source).toBe('x.yaml#1');
    expect(set.errors[0]?.message).toContain(message);
    expect(set.objects.map((o) => o.object.kind)).toEqual(['Pod']);
  });
});

describe('readManifestPaths', () => {
  const dir = mkdtempSync(join(tmpdir(), 'manifests-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('walks directories in name order, skips other extensions, reports missing paths', () => {
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'b.yaml'), 'apiVersion: v1\nkind: Node\n');
    writeFileSync(join(dir, 'a.yml'), 'apiVersion: v1\nkind: Pod\n');
    writeFileSync(join(dir, 'notes.txt'), 'kind: Ignored\n');
    writeFileSync(join(dir, 'sub', 'c.json'), '{"apiVersion":"v1","kind":"Namespace"}');
    const set = readManifestPaths([dir, join(dir, 'missing.yaml')]);
    expect(set.objects.map((o) => o.object.kind)).toEqual(['Pod', 'Node', 'Namespace']);
    expect(set.errors).toEqual([{ source: join(dir, 'missing.yaml'), message: 'the path does not exist or cannot be read' }]);
  });
});

describe('parseManifests: JSON fast path', () => {
  it("reads kubectl's `get -o json` List (pretty-printed, kind List, items with their own apiVersion)", () => {
    const list = {
      apiVersion: 'v1',
      kind: 'List',
      metadata: { resourceVersion: '' },
      items: [
        { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a' } },
        { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' } },
      ],
    };
    const set = parseManifests(JSON.stringify(list, null, 4), '-');
    expect(set.errors).toEqual([]);
    expect(set.objects.map((o) => [o.source, o.object.kind])).toEqual([
      ['-#1.items[0]', 'Pod'],
      ['-#1.items[1]', 'Deployment'],
    ]);
  });

  it('reads flow-style YAML that starts with a brace as YAML, not as broken JSON', () => {
    const set = parseManifests('{apiVersion: v1, kind: Pod, metadata: {name: flow}}\n', 'flow.yaml');
    expect(set.errors).toEqual([]);
    expect(set.objects[0]?.object.metadata).toEqual({ name: 'flow' });
  });

  it('skips a UTF-8 byte order mark', () => {
    expect(parseManifests('\ufeff{"apiVersion":"v1","kind":"Pod"}', 'bom.json').objects).toHaveLength(1);
  });
});

describe('parseManifests: YAML 1.2 core semantics', () => {
  const valueOf = (scalar: string): unknown =>
    (parseManifests(`apiVersion: v1\nkind: ConfigMap\ndata:\n  v: ${scalar}\n`, 'x.yaml').objects[0]?.object.data as { v: unknown }).v;

  it.each([
    ['yes', 'yes'],
    ['on', 'on'],
    ['0b101', '0b101'],
    ['1_000', '1_000'],
    ['1_000.5', '1_000.5'],
    ['2024-01-01', '2024-01-01'],
    ['12:30', '12:30'],
  ])('keeps YAML 1.1 leftovers as strings: %s', (scalar, expected) => {
    expect(valueOf(scalar)).toBe(expected);
  });

  it.each([
    ['012', 12],
    ['0o12', 10],
    ['0x1F', 31],
    ['+12', 12],
    ['1e3', 1000],
    ['.5', 0.5],
    ['-.inf', -Infinity],
    ['true', true],
    ['FALSE', false],
    ['~', null],
  ])('resolves core scalars: %s', (scalar, expected) => {
    expect(valueOf(scalar)).toBe(expected);
  });
});

describe('parseManifests: document splitting', () => {
  it('keeps an indented --- inside a block scalar as content', () => {
    const set = parseManifests('apiVersion: v1\nkind: ConfigMap\ndata:\n  script: |\n    echo a\n    ---\n    echo b\n', 'cm.yaml');
    expect(set.errors).toEqual([]);
    expect((set.objects[0]?.object.data as { script: string }).script).toBe('echo a\n---\necho b\n');
  });

  it('ends a document at ..., reads a directive before ---, and content on the --- line', () => {
    const text = '%YAML 1.2\n---\napiVersion: v1\nkind: Pod\n...\n--- {apiVersion: v1, kind: Node}\n';
    expect(parseManifests(text, 'x.yaml').objects.map((o) => [o.source, o.object.kind])).toEqual([
      ['x.yaml#1', 'Pod'],
      ['x.yaml#2', 'Node'],
    ]);
  });

  it("names a bad document's line in the whole file", () => {
    const text = 'apiVersion: v1\nkind: Pod\n---\napiVersion: v1\nkind: [unclosed\n';
    const set = parseManifests(text, 'x.yaml');
    expect(set.errors).toHaveLength(1);
    expect(set.errors[0]?.source).toBe('x.yaml#2');
    expect(set.errors[0]?.message).toMatch(/^parsing YAML: .* at line 6, column \d+$/);
  });
});
