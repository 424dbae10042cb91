/**
 * Encodes the extender's answers straight into a Buffer, byte for byte what `JSON.stringify` would send.
 *
 * Why not res.json: with 5,000 nodes the answer is ~300 KiB. V8's JSON.stringify returns it as a tree of
 * parts that is flattened on first use, then express copies it into a Buffer through a UTF-8 encoder; writing
 * each node name into one Buffer sized up front skips both (bench:extender, the string-path cases).
 *
 * Only the shapes the extender sends are written here; anything else (the full NodeList of Nodes mode)
 * goes through JSON.stringify.
 */
import type { ExtenderFilterResult, FailedNodesMap, HostPriorityList } from '../../src/domain/extender/index.js';

const Quote = 0x22;

/** Printable ASCII but quote and backslash: JSON.stringify writes it as it is (every node name is). */
const PlainAscii = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** A growing byte buffer for JSON text. */
class JsonBytes {
  private bytes: Buffer;
  private length = 0;

  constructor(capacity: number) {
    this.bytes = Buffer.allocUnsafe(Math.max(64, capacity));
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + extra));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }

  /** A short ASCII constant (keys, punctuation): a byte loop is cheaper than a call into the encoder. */
  ascii(text: string): void {
    this.reserve(text.length);
    const bytes = this.bytes;
    let at = this.length;
    for (let i = 0; i < text.length; i++) bytes[at++] = text.charCodeAt(i);
    this.length = at;
  }

  /** Text that is already JSON (JSON.stringify output). */
  raw(text: string): void {
    // A UTF-16 unit is at most 3 bytes of UTF-8.
    this.reserve(text.length * 3);
    this.length += this.bytes.write(text, this.length, 'utf8');
  }

  string(value: string): void {
    // Anything else (escapes, non-ASCII) is rare and spelled by JSON.stringify itself.
    if (!PlainAscii.test(value)) {
      this.raw(JSON.stringify(value));
      return;
    }
    this.reserve(value.length + 2);
    const bytes = this.bytes;
    bytes[this.length++] = Quote;
    // Plain ASCII: latin1 writes each character as its byte (bench/name-write.bench.ts compares the documented ways).
    this.length += bytes.write(value, this.length, 'latin1');
    bytes[this.length++] = Quote;
  }

  number(value: number): void {
    if (Number.isInteger(value) && value >= 0 && value <= 9) {
      this.reserve(1);
      this.bytes[this.length++] = 0x30 + value;
      return;
    }
    // JSON.stringify's spelling: NaN and ±Infinity become null.
    this.ascii(JSON.stringify(value));
  }

  stringArray(values: readonly string[]): void {
    this.ascii('[');
    for (let i = 0; i < values.length; i++) {
      if (i > 0) this.ascii(',');
      this.string(values[i] as string);
    }
    this.ascii(']');
  }

  stringMap(map: FailedNodesMap): void {
    this.ascii('{');
    let first = true;
    // Object.keys order is JSON.stringify's order (integer-like keys first).
    for (const key of Object.keys(map)) {
      if (!first) this.ascii(',');
      first = false;
      this.string(key);
      this.ascii(':');
      this.string(map[key] as string);
    }
    this.ascii('}');
  }

  done(): Buffer {
    return this.bytes.subarray(0, this.length);
  }
}

/** A node name is usually 20–60 bytes; the estimate only saves regrowing. */
const BytesPerName = 64;

export function encodeHostPriorityList(list: HostPriorityList): Buffer {
  const out = new JsonBytes(list.length * (BytesPerName + 20) + 2);
  out.ascii('[');
  for (let i = 0; i < list.length; i++) {
    const { Host, Score } = list[i] as HostPriorityList[number];
    out.ascii(i > 0 ? ',{"Host":' : '{"Host":');
    out.string(Host);
    out.ascii(',"Score":');
    out.number(Score);
    out.ascii('}');
  }
  out.ascii(']');
  return out.done();
}

export function encodeFilterResult(result: ExtenderFilterResult): Buffer {
  // Failed nodes carry a reason (~40 bytes) besides the name: counted too, so the buffer is not outgrown and copied.
  const failed = Object.keys(result.FailedNodes).length + Object.keys(result.FailedAndUnresolvableNodes).length;
  const out = new JsonBytes((result.NodeNames?.length ?? 0) * (BytesPerName + 3) + failed * 2 * BytesPerName + 128);
  out.ascii('{"Nodes":');
  out.raw(JSON.stringify(result.Nodes ?? null));
  out.ascii(',"NodeNames":');
  if (result.NodeNames) out.stringArray(result.NodeNames);
  else out.ascii('null');
  out.ascii(',"FailedNodes":');
  out.stringMap(result.FailedNodes);
  out.ascii(',"FailedAndUnresolvableNodes":');
  out.stringMap(result.FailedAndUnresolvableNodes);
  out.ascii(',"Error":');
  out.string(result.Error);
  out.ascii('}');
  return out.done();
}
