import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseJsonBody } from '../../../../webhooks/extender/json-body.js';
import { NameHashSeed, nameHashStep, NameTable } from '../../../../webhooks/extender/name-table.js';

function hashOf(bytes: Buffer): number {
  let hash = NameHashSeed;
  for (const byte of bytes) hash = nameHashStep(hash, byte);
  return hash;
}

function intern(table: NameTable, text: string, hash = hashOf(Buffer.from(text))): string {
  const bytes = Buffer.from(`["${text}"]`);
  return table.intern(bytes, 2, 2 + text.length, hash);
}

describe('NameTable', () => {
  it('gives the same string object for a name seen before', () => {
    const table = new NameTable();
    const first = intern(table, 'karpenter-b3-8-eu-west-par-a-node-1f2e3d');
    const again = intern(table, 'karpenter-b3-8-eu-west-par-a-node-1f2e3d');
    expect(again).toBe('karpenter-b3-8-eu-west-par-a-node-1f2e3d');
    expect(again).toBe(first);
    expect(table.size).toBe(1);
  });

  it('never answers another name on a hash collision', () => {
    const table = new NameTable();
    expect(intern(table, 'node-a', 42)).toBe('node-a');
    expect(intern(table, 'node-b', 42)).toBe('node-b');
    expect(intern(table, 'node-', 42)).toBe('node-');
    expect(intern(table, 'node-b', 42)).toBe('node-b');
  });

  it('stays within its capacity', () => {
    const table = new NameTable(10);
    for (let i = 0; i < 95; i++) expect(intern(table, `node-${i}`)).toBe(`node-${i}`);
    expect(table.size).toBeLessThanOrEqual(10);
  });

  it('makes parseJsonBody return the names of the body, reusing earlier strings (property)', () => {
    const table = new NameTable(50);
    const name = fc.oneof(fc.stringMatching(/^[a-z0-9][-a-z0-9.]{0,20}$/), fc.string());
    fc.assert(
      fc.property(fc.array(name, { maxLength: 30 }), fc.array(name, { maxLength: 30 }), (earlier, names) => {
        parseJsonBody(Buffer.from(JSON.stringify({ NodeNames: earlier })), table);
        const text = JSON.stringify({ Pod: {}, NodeNames: names });
        expect(parseJsonBody(Buffer.from(text), table)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });
});
