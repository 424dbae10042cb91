/** Damaged request bodies for the JSON-walk properties: a copy truncated, or with one byte inserted, replaced or deleted. */
import fc from 'fast-check';

export type Damage = { how: 'truncate' | 'insert' | 'replace' | 'delete'; at: number; byte: number };

export const damage: fc.Arbitrary<Damage> = fc.record({
  how: fc.constantFrom('truncate', 'insert', 'replace', 'delete'),
  at: fc.nat(),
  byte: fc.integer({ min: 0, max: 255 }),
});

/** `bytes` damaged at `at` modulo its length (an empty body stays empty but for an insert). */
export function damaged(bytes: Buffer, { how, at, byte }: Damage): Buffer {
  const i = bytes.length === 0 ? 0 : at % bytes.length;
  if (how === 'truncate') return bytes.subarray(0, i);
  if (how === 'delete') return Buffer.concat([bytes.subarray(0, i), bytes.subarray(i + 1)]);
  return Buffer.concat([bytes.subarray(0, i), Buffer.from([byte]), bytes.subarray(how === 'replace' ? i + 1 : i)]);
}
