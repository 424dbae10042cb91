/**
 * Plain node names (name-spans.ts) to dense slots, found by string or by the bytes of a span, without making
 * a string of them: the service's extender view allocates its slots here, and finds a request's names in it.
 */

import { grown } from '../util/typed-arrays.js';
import { dataViewOf, isPlainName } from './name-spans.js';

/**
 * A 32-bit hash of `bytes[start, end)`, four bytes at a time (unaligned little-endian reads, which V8 compiles to
 * one load each): a multiply per word, its high bits folded into the low ones the table's mask keeps.
 */
export function hashBytes(bytes: DataView, start: number, end: number): number {
  let hash = (end - start) | 0;
  let at = start;
  for (; at + 4 <= end; at += 4) {
    hash = Math.imul(hash ^ bytes.getInt32(at, true), 0x9e3779b1);
    hash ^= hash >>> 16;
  }
  for (; at < end; at++) hash = Math.imul(hash ^ bytes.getUint8(at), 0x01000193);
  return hash ^ (hash >>> 15);
}

/** Whether `a[aStart, aStart + length)` and `b[bStart, bStart + length)` hold the same bytes, compared a word at a time. */
function sameBytes(a: DataView, aStart: number, b: DataView, bStart: number, length: number): boolean {
  let i = 0;
  for (; i + 4 <= length; i += 4) if (a.getInt32(aStart + i, true) !== b.getInt32(bStart + i, true)) return false;
  for (; i < length; i++) if (a.getUint8(aStart + i) !== b.getUint8(bStart + i)) return false;
  return true;
}

const Empty = -1;
const MinCapacity = 64;

/**
 * Plain names → dense slot numbers (0, 1, 2…; a removed name's slot is reused), found by string or by bytes.
 * Open addressing with linear probing, at most half full; removal shifts the following entries back instead
 * of leaving tombstones, so lookups never slow down as nodes come and go. The names' bytes lie side by side
 * in one arena, and hashes and places in typed arrays: a lookup touches a few cache lines, not objects
 * scattered over the heap (for 5,000 names per call that is most of the cost).
 */
export class ByteNameIndex {
  private readonly slotByName = new Map<string, number>();
  private readonly names: (string | undefined)[] = [];
  private readonly freeSlots: number[] = [];
  private hashes = new Int32Array(MinCapacity);
  private offsets = new Int32Array(MinCapacity);
  private lengths = new Int32Array(MinCapacity);
  private arena = Buffer.alloc(MinCapacity * 64);
  private arenaView = dataViewOf(this.arena);
  private arenaUsed = 0;
  /** Bytes of removed names still in the arena; compacted away when they are half of it. */
  private arenaWaste = 0;
  /** table[position] = slot, or Empty. */
  private table = new Int32Array(MinCapacity * 2).fill(Empty);

  get size(): number {
    return this.slotByName.size;
  }

  /** One past the highest slot ever used: arrays indexed by slot need this length. */
  get slotLimit(): number {
    return this.names.length;
  }

  slotOf(name: string): number {
    return this.slotByName.get(name) ?? Empty;
  }

  nameOf(slot: number): string | undefined {
    return this.names[slot];
  }

  /** The slot of the name whose bytes are `bytes[start, end)` (bytes: dataViewOf the buffer); -1 when not indexed. */
  find(bytes: DataView, start: number, end: number): number {
    const { table, hashes, lengths, offsets, arenaView } = this;
    const hash = hashBytes(bytes, start, end);
    const mask = table.length - 1;
    const length = end - start;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const slot = table[at] as number;
      if (slot === Empty) return Empty;
      if (hashes[slot] === hash && lengths[slot] === length && sameBytes(arenaView, offsets[slot] as number, bytes, start, length))
        return slot;
    }
  }

  /** Indexes a plain name (returns its slot; the same slot when already there); -1 for a name that is not plain. */
  add(name: string): number {
    const known = this.slotByName.get(name);
    if (known !== undefined) return known;
    if (!isPlainName(name)) return Empty;
    const slot = this.freeSlots.pop() ?? this.names.length;
    if (slot >= this.hashes.length) this.growSlots(slot + 1);
    this.names[slot] = name;
    this.store(slot, name);
    this.hashes[slot] = hashBytes(this.arenaView, this.offsets[slot] as number, this.arenaUsed);
    this.slotByName.set(name, slot);
    if (this.slotByName.size * 2 > this.table.length) this.rehash(this.table.length * 2);
    else this.place(slot, this.hashes[slot] as number);
    return slot;
  }

  /** Forgets a name; its slot may be handed to the next name added. */
  remove(name: string): void {
    const slot = this.slotByName.get(name);
    if (slot === undefined) return;
    this.slotByName.delete(name);
    this.unplace(slot);
    this.names[slot] = undefined;
    this.freeSlots.push(slot);
    this.arenaWaste += this.lengths[slot] as number;
    if (this.arenaWaste * 2 > this.arenaUsed) this.compact();
  }

  /** Appends the name's bytes to the arena. */
  private store(slot: number, name: string): void {
    if (this.arenaUsed + name.length > this.arena.length) {
      const next = Buffer.alloc(Math.max(this.arena.length * 2, this.arenaUsed + name.length));
      this.arena.copy(next, 0, 0, this.arenaUsed);
      this.arena = next;
      this.arenaView = dataViewOf(next);
    }
    this.offsets[slot] = this.arenaUsed;
    this.lengths[slot] = name.length;
    this.arenaUsed += this.arena.write(name, this.arenaUsed, 'latin1');
  }

  /** Rewrites the arena with the names still indexed. */
  private compact(): void {
    this.arenaUsed = 0;
    this.arenaWaste = 0;
    for (const [name, slot] of this.slotByName) this.store(slot, name);
  }

  private growSlots(atLeast: number): void {
    this.hashes = grown(this.hashes, atLeast);
    this.offsets = grown(this.offsets, atLeast);
    this.lengths = grown(this.lengths, atLeast);
  }

  private place(slot: number, hash: number): void {
    const mask = this.table.length - 1;
    let at = hash & mask;
    while (this.table[at] !== Empty) at = (at + 1) & mask;
    this.table[at] = slot;
  }

  /** Removes the slot's entry and moves back each following entry that the gap cut off from its home position. */
  private unplace(slot: number): void {
    const { table, hashes } = this;
    const mask = table.length - 1;
    let gap = (hashes[slot] as number) & mask;
    while (table[gap] !== slot) gap = (gap + 1) & mask;
    table[gap] = Empty;
    for (let at = (gap + 1) & mask; table[at] !== Empty; at = (at + 1) & mask) {
      const moving = table[at] as number;
      const home = (hashes[moving] as number) & mask;
      // The entry may fill the gap when its home is not in the cyclic range (gap, at].
      const reachable = gap <= at ? home <= gap || home > at : home <= gap && home > at;
      if (reachable) {
        table[gap] = moving;
        table[at] = Empty;
        gap = at;
      }
    }
  }

  private rehash(capacity: number): void {
    this.table = new Int32Array(capacity).fill(Empty);
    for (const slot of this.slotByName.values()) this.place(slot, this.hashes[slot] as number);
  }
}
