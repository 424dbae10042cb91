import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ByteNameIndex, hashBytes } from '../../../src/byte-path/name-index.js';
import { dataViewOf, isPlainName, isPlainSpan, type NameSpans, spanName } from '../../../src/byte-path/name-spans.js';

/** `bytes` copied at `offset` of a fresh buffer, so its words are read at every alignment. */
function placed(bytes: Uint8Array, offset: number): Buffer {
  const buffer = Buffer.alloc(offset + bytes.length + 3, 0xaa);
  buffer.set(bytes, offset);
  return buffer;
}

/** The index's answer for a name looked up by its bytes at `offset` of a buffer. */
function findAt(index: ByteNameIndex, name: string, offset = 0): number {
  const buffer = placed(Buffer.from(name, 'latin1'), offset);
  return index.find(dataViewOf(buffer), offset, offset + name.length);
}

/** Names as spans of one JSON array body, the way a request carries them. */
function spansOf(names: readonly string[]): NameSpans {
  const bytes = Buffer.from(JSON.stringify({ Pod: {}, NodeNames: names }));
  const starts = new Int32Array(names.length);
  const ends = new Int32Array(names.length);
  let at = bytes.indexOf('[');
  names.forEach((name, i) => {
    starts[i] = bytes.indexOf('"', at) + 1;
    ends[i] = (starts[i] as number) + name.length;
    at = (ends[i] as number) + 1;
  });
  return { bytes, starts, ends, count: names.length };
}

describe('ByteNameIndex', () => {
  it('hands out dense slots from 0 in the order names are added', () => {
    const index = new ByteNameIndex();
    expect(['node-a', 'node-b', 'node-c'].map((name) => index.add(name))).toEqual([0, 1, 2]);
    expect(index.size).toBe(3);
    expect(index.slotLimit).toBe(3);
    expect([0, 1, 2].map((slot) => index.nameOf(slot))).toEqual(['node-a', 'node-b', 'node-c']);
  });

  it('gives a name added again the slot it already has', () => {
    const index = new ByteNameIndex();
    index.add('node-a');
    const slot = index.add('node-b');
    expect(index.add('node-b')).toBe(slot);
    expect(index.size).toBe(2);
    expect(index.slotLimit).toBe(2);
  });

  it.each([
    ['a quote', 'a"b'],
    ['a backslash', 'a\\b'],
    ['a tab', 'a\tb'],
    ['a newline', 'a\nb'],
    ['a NUL', '\u0000'],
    ['the last control character', 'x\u001f'],
    ['DEL (0x7f)', 'a\u007fb'],
    ['the first byte past ASCII', 'a\u0080'],
    ['a latin-1 letter', 'nœud-é'],
    ['an emoji', 'node-😀'],
    ['a lone surrogate', '\ud800'],
  ])('refuses a name with %s (not plain) with -1 and indexes nothing', (_label, name) => {
    const index = new ByteNameIndex();
    expect(isPlainName(name)).toBe(false);
    expect(index.add(name)).toBe(-1);
    expect(index.size).toBe(0);
    expect(index.slotLimit).toBe(0);
    expect(index.slotOf(name)).toBe(-1);
    // The refused name took no slot: the next plain name still gets 0.
    expect(index.add('node-a')).toBe(0);
  });

  it.each([
    ['space and punctuation', " !#$%&'()*+,-./:;<=>?@[]^_`{|}~"],
    ['digits and letters', '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'],
    ['an MKS node name', 'karpenter-b3-8-eu-west-par-a-node-1f2e3d'],
  ])('takes a name of %s (printable ASCII but quote and backslash)', (_label, name) => {
    const index = new ByteNameIndex();
    expect(isPlainName(name)).toBe(true);
    expect(index.add(name)).toBe(0);
    expect(findAt(index, name, 3)).toBe(0);
  });

  it('frees the slot of a removed name and hands it to the next name added', () => {
    const index = new ByteNameIndex();
    for (const name of ['node-a', 'node-b', 'node-c']) index.add(name);
    index.remove('node-b');
    expect(index.size).toBe(2);
    expect(index.slotOf('node-b')).toBe(-1);
    expect(index.nameOf(1)).toBeUndefined();
    expect(findAt(index, 'node-b')).toBe(-1);
    expect(index.add('node-d')).toBe(1);
    expect(index.nameOf(1)).toBe('node-d');
    expect(index.slotLimit).toBe(3);
    expect([findAt(index, 'node-a'), findAt(index, 'node-c'), findAt(index, 'node-d')]).toEqual([0, 2, 1]);
  });

  it('ignores the removal of a name it does not hold', () => {
    const index = new ByteNameIndex();
    index.add('node-a');
    index.remove('node-b');
    index.remove('node-a');
    index.remove('node-a');
    expect(index.size).toBe(0);
    expect(index.add('node-c')).toBe(0);
    expect(index.slotLimit).toBe(1);
  });

  it('finds names where they lie in a JSON body, at any offset, in a buffer that is a slice of a larger one', () => {
    const index = new ByteNameIndex();
    const names = ['n1', 'abcd', 'karpenter-b3-8-eu-west-par-a-node-1f2e3d', '12345', 'ip-10-0-1-23.eu-west-2.compute.internal'];
    for (const name of names) index.add(name);
    const spans = spansOf(['unknown', ...names, 'n1']);
    // A slice at an odd byteOffset of its ArrayBuffer: the DataView must start where the slice does.
    const slice = Buffer.concat([Buffer.from('xyz'), spans.bytes]).subarray(3);
    const view = dataViewOf(slice);
    const found = Array.from({ length: spans.count }, (_, i) => index.find(view, spans.starts[i] as number, spans.ends[i] as number));
    expect(found).toEqual([-1, 0, 1, 2, 3, 4, 0]);
    expect(Array.from({ length: spans.count }, (_, i) => spanName(spans, i))).toEqual(['unknown', ...names, 'n1']);
  });

  it.each([
    ['one byte changed at the start', 'xarpenter-b3-8-eu-west-par-a-node-1f2e3d'],
    ['one byte changed in the middle', 'karpenter-b3-8-eu-west-pax-a-node-1f2e3d'],
    ['one byte changed at the end', 'karpenter-b3-8-eu-west-par-a-node-1f2e3e'],
    ['a prefix (whole words)', 'karpenter-b3-8-eu-west-par-a-node'],
    ['a prefix (one byte short)', 'karpenter-b3-8-eu-west-par-a-node-1f2e3'],
    ['a longer name', 'karpenter-b3-8-eu-west-par-a-node-1f2e3d0'],
    ['a suffix', 'node-1f2e3d'],
    ['the empty name', ''],
  ])('does not find a name that is %s of an indexed one', (_label, other) => {
    const index = new ByteNameIndex();
    const name = 'karpenter-b3-8-eu-west-par-a-node-1f2e3d';
    index.add(name);
    index.add('n1');
    expect(findAt(index, other, 1)).toBe(-1);
    expect(findAt(index, name, 1)).toBe(0);
  });

  /**
   * Two plain names of 4 and 8 bytes, the short one a prefix of the long one, with the same hashBytes: found by
   * solving hashBytes' word step (multiply, fold) for the second word. Only the lengths then tell them apart.
   */
  function collidingPrefix(): [string, string] {
    const step = (x: number): number => {
      const h = Math.imul(x, 0x9e3779b1);
      return h ^ (h >>> 16);
    };
    const word = Buffer.alloc(4);
    for (let a = 0x61; a <= 0x7a; a++)
      for (let b = 0x30; b <= 0x39; b++)
        for (let c = 0x41; c <= 0x5a; c++) {
          const first = Buffer.from([a, b, c, 0x2d]);
          const w1 = first.readInt32LE(0);
          word.writeInt32LE(step(8 ^ w1) ^ 4 ^ w1);
          if (isPlainName(word.toString('latin1'))) return [first.toString('latin1'), first.toString('latin1') + word.toString('latin1')];
        }
    throw new Error('no colliding pair found');
  }

  it('tells apart names with the same hash whose bytes agree over the shorter length (a prefix)', () => {
    const [short, long] = collidingPrefix();
    const hashOf = (name: string): number => hashBytes(dataViewOf(Buffer.from(name, 'latin1')), 0, name.length);
    // The premise: if hashBytes changes, collidingPrefix must be solved again for the new word step.
    expect(hashOf(short), `${short} and ${long} no longer collide`).toBe(hashOf(long));
    const longFirst = new ByteNameIndex();
    longFirst.add(long);
    expect(findAt(longFirst, short, 2)).toBe(-1);
    expect(findAt(longFirst, long, 2)).toBe(0);
    // The short name first, then its missing tail as a name of its own: the arena holds the long name's bytes.
    const shortFirst = new ByteNameIndex();
    shortFirst.add(short);
    shortFirst.add(long.slice(short.length));
    expect(findAt(shortFirst, long, 1)).toBe(-1);
    expect(findAt(shortFirst, short, 1)).toBe(0);
  });

  it('indexes the empty name like any other', () => {
    const index = new ByteNameIndex();
    index.add('node-a');
    expect(findAt(index, '')).toBe(-1);
    expect(index.add('')).toBe(1);
    expect(findAt(index, '', 7)).toBe(1);
    expect(index.slotOf('')).toBe(1);
    expect(index.nameOf(1)).toBe('');
    index.remove('');
    expect(findAt(index, '')).toBe(-1);
    expect(findAt(index, 'node-a')).toBe(0);
  });

  it('keeps finding every name through table growths, arena compactions and slot reuse (1,000 names)', () => {
    const index = new ByteNameIndex();
    const names = Array.from({ length: 1_000 }, (_, i) => `karpenter-b3-8-eu-west-par-a-node-${i.toString(16).padStart(6, '0')}`);
    for (const name of names) index.add(name);
    for (let i = 0; i < names.length; i++) if (i % 4 !== 0) index.remove(names[i] as string);
    const readded = names.map((name) => `${name}-again`).slice(0, 500);
    for (const name of readded) index.add(name);
    expect(index.size).toBe(750);
    expect(index.slotLimit).toBe(1_000);
    const missing = names.filter(
      (name, i) => findAt(index, name, i % 8) !== (i % 4 === 0 ? i : -1) || index.slotOf(name) !== (i % 4 === 0 ? i : -1),
    );
    expect(missing).toEqual([]);
    expect(readded.filter((name) => findAt(index, name) !== index.slotOf(name) || index.nameOf(index.slotOf(name)) !== name)).toEqual([]);
  });

  // Names from a small alphabet, so the same names come and go: long and short ones (0–70 bytes), names that
  // share a long prefix or suffix and differ in a byte or two, and any printable ASCII but quote and backslash.
  const plainByte = fc.integer({ min: 0x20, max: 0x7e }).filter((byte) => byte !== 0x22 && byte !== 0x5c);
  const anyPlain = fc.array(plainByte, { maxLength: 70 }).map((bytes) => String.fromCharCode(...bytes));
  const short = fc.string({ unit: fc.constantFrom('a', 'b', '0', '-'), maxLength: 5 });
  const prefix = 'karpenter-b3-8-eu-west-par-a-node-';
  const suffix = '.eu-west-2.compute.internal';
  const plainName = fc.oneof(
    anyPlain,
    short,
    short.map((tail) => prefix + tail),
    short.map((head) => head + suffix),
    fc.tuple(short, short).map(([middle, tail]) => `${prefix}${middle}${suffix}${tail}`),
  );

  /** A buffer holding every name of the alphabet, each at a random offset, with junk between. */
  function layout(alphabet: readonly string[], gaps: readonly number[], lead: number): { view: DataView; starts: number[] } {
    const parts: Buffer[] = [Buffer.alloc(lead, 0x2c)];
    const starts: number[] = [];
    let at = lead;
    alphabet.forEach((name, i) => {
      const gap = Buffer.alloc((gaps[i] ?? 0) % 8, 0x22);
      parts.push(gap);
      at += gap.length;
      starts.push(at);
      parts.push(Buffer.from(name, 'latin1'));
      at += name.length;
    });
    // Sliced at `lead`: the buffer's byteOffset is arbitrary, and offsets count from the slice.
    const bytes = Buffer.concat(parts).subarray(lead);
    return { view: dataViewOf(bytes), starts: starts.map((start) => start - lead) };
  }

  const add = fc.record({ kind: fc.constantFrom('add', 'add', 'add', 'remove'), which: fc.nat() });
  const remove = fc.record({ kind: fc.constantFrom('add', 'remove', 'remove', 'remove'), which: fc.nat() });
  const mixed = fc.record({ kind: fc.constantFrom('add', 'remove'), which: fc.nat() });
  const scenario = fc.uniqueArray(plainName, { minLength: 140, maxLength: 170 }).chain((alphabet) =>
    fc.record({
      alphabet: fc.constant(alphabet),
      // First more than 128 distinct names (two table growths past 64 slots), then mostly removals (compactions), then both.
      fill: fc.shuffledSubarray(alphabet, { minLength: 130 }),
      ops: fc.tuple(
        fc.array(add, { maxLength: 60 }),
        fc.array(remove, { minLength: 60, maxLength: 200 }),
        fc.array(mixed, { maxLength: 120 }),
      ),
      gaps: fc.array(fc.nat(), { minLength: alphabet.length, maxLength: alphabet.length }),
      lead: fc.nat({ max: 7 }),
    }),
  );

  it('agrees with a Map model after every add and remove, by name and by bytes (property)', () => {
    fc.assert(
      fc.property(scenario, ({ alphabet, fill, ops, gaps, lead }) => {
        const index = new ByteNameIndex();
        const model = new Map<string, number>();
        const { view, starts } = layout(alphabet, gaps, lead);
        const steps = [
          ...fill.map((name) => ({ kind: 'add', name })),
          ...ops.flat().map(({ kind, which }) => ({ kind, name: alphabet[which % alphabet.length] as string })),
        ];
        let peak = 0;
        for (const { kind, name } of steps) {
          if (kind === 'add') {
            const before = index.slotLimit;
            const live = new Set(model.values());
            const free = Array.from({ length: before }, (_, slot) => slot).filter((slot) => !live.has(slot));
            const slot = index.add(name);
            if (model.has(name)) expect(slot).toBe(model.get(name));
            // A new name takes a freed slot while there is one, else the next one.
            else if (free.length > 0) expect(free).toContain(slot);
            else expect(slot).toBe(before);
            model.set(name, slot);
          } else {
            index.remove(name);
            model.delete(name);
          }
          peak = Math.max(peak, model.size);
          expect(index.size).toBe(model.size);
          const wrong: string[] = [];
          const seen = new Set<number>();
          alphabet.forEach((n, i) => {
            const expected = model.get(n) ?? -1;
            const start = starts[i] as number;
            if (index.slotOf(n) !== expected) wrong.push(`slotOf(${JSON.stringify(n)}) = ${index.slotOf(n)}, expected ${expected}`);
            const found = index.find(view, start, start + n.length);
            if (found !== expected) wrong.push(`find(${JSON.stringify(n)}) = ${found}, expected ${expected}`);
            if (expected === -1) return;
            if (index.nameOf(expected) !== n)
              wrong.push(`nameOf(${expected}) = ${JSON.stringify(index.nameOf(expected))}, expected ${JSON.stringify(n)}`);
            if (seen.has(expected) || expected < 0 || expected >= index.slotLimit)
              wrong.push(`slot ${expected} of ${JSON.stringify(n)} reused or out of range`);
            seen.add(expected);
          });
          expect(wrong).toEqual([]);
        }
        expect(peak).toBeGreaterThan(128);
      }),
      { numRuns: 100 },
    );
  });
});

describe('hashBytes', () => {
  it('gives the same hash for the same bytes at any offset and alignment (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70 }), fc.nat({ max: 7 }), fc.nat({ max: 7 }), (bytes, a, b) => {
        const first = placed(bytes, a);
        // A slice of a larger buffer: the view starts at a byteOffset that is not a multiple of 4.
        const second = Buffer.concat([Buffer.alloc(1 + b), placed(bytes, b)]).subarray(1 + b);
        const hash = hashBytes(dataViewOf(first), a, a + bytes.length);
        expect(hashBytes(dataViewOf(second), b, b + bytes.length)).toBe(hash);
        // An int32, as the index stores hashes in an Int32Array and compares them with ===.
        expect(hash | 0).toBe(hash);
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['the empty span', ''],
    ['one byte', 'a'],
    ['a word', 'abcd'],
    ['a word and three bytes', 'abcdefg'],
  ])('reads only the span of %s, not the bytes around it', (_label, text) => {
    const name = Buffer.from(text, 'latin1');
    const hashes = [0x00, 0x41, 0xff].map((around) => {
      const buffer = Buffer.alloc(name.length + 10, around);
      name.copy(buffer, 5);
      return hashBytes(dataViewOf(buffer), 5, 5 + name.length);
    });
    expect(new Set(hashes).size).toBe(1);
  });
});

describe('plain names and spans', () => {
  it.each([
    ['node-a', true],
    ['', true],
    [' ~', true],
    ['a"b', false],
    ['a\\b', false],
    ['\u001f', false],
    ['\u007f', false],
    ['é', false],
  ])('isPlainName(%j) and isPlainSpan of its raw bytes are %s', (name, plain) => {
    expect(isPlainName(name)).toBe(plain);
    const bytes = Buffer.from(`[${name}]`, 'latin1');
    expect(isPlainSpan({ bytes, starts: Int32Array.of(1), ends: Int32Array.of(1 + name.length), count: 1 }, 0)).toBe(plain);
  });

  it('spanName reads the bytes of the span', () => {
    const spans = spansOf(['a', '', 'node-b']);
    expect([0, 1, 2].map((i) => spanName(spans, i))).toEqual(['a', '', 'node-b']);
    expect([0, 1, 2].map((i) => isPlainSpan(spans, i))).toEqual([true, true, true]);
  });
});
