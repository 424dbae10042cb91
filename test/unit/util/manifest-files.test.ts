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
    const text = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [{ apiVersion: 'v1', kind: 'Pod' }, { apiVersion: 'v1', kind: 'Node' }] });
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
