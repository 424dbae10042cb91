/**
 * The node names of earlier request bodies, so the next body's names come out as the same string objects.
 *
 * Why: the view is a Map keyed by node name, and V8 hashes a string the first time it is used as a key —
 * for 5,000 fresh names per call that was ~0.6 ms, about a fifth of the call. A string from this table was
 * hashed on an earlier call and is looked up at once; the body walk computes its own hash of each name's
 * bytes in the loop that validates them anyway, and no new string is made for a name seen before.
 * Owned by one server; bounded, and emptied when full (a cluster's node names fit many times over).
 */

/** FNV-1a (32 bit) offset basis and prime. */
export const NameHashSeed = 0x811c9dc5;
const NameHashPrime = 0x01000193;

/** One step of the name hash: fold in one byte. */
export function nameHashStep(hash: number, byte: number): number {
  return Math.imul(hash ^ byte, NameHashPrime);
}

export const DefaultNameTableCapacity = 100_000;

export class NameTable {
  private readonly byHash = new Map<number, string>();

  constructor(private readonly capacity = DefaultNameTableCapacity) {}

  get size(): number {
    return this.byHash.size;
  }

  /** The ASCII string in bytes[start, end) whose nameHashStep fold from NameHashSeed is `hash`. */
  intern(bytes: Buffer, start: number, end: number, hash: number): string {
    const known = this.byHash.get(hash);
    if (known !== undefined && sameAscii(known, bytes, start, end)) return known;
    const name = bytes.toString('latin1', start, end);
    // A collision replaces the older name: both stay correct, one of them is made afresh next time.
    if (this.byHash.size >= this.capacity) this.byHash.clear();
    this.byHash.set(hash, name);
    return name;
  }
}

function sameAscii(text: string, bytes: Buffer, start: number, end: number): boolean {
  if (text.length !== end - start) return false;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) !== bytes[start + i]) return false;
  return true;
}
