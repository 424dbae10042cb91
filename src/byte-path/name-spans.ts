/**
 * Node names as spans of a request body's bytes, so that no string is made per name.
 *
 * A name is "plain" when it is printable ASCII without quote or backslash: its bytes inside a JSON string
 * are the name itself (every Kubernetes node name is plain). Only plain names are found by their bytes.
 */

/** Names as spans of one byte buffer (a request body): the i-th name is `bytes[starts[i], ends[i])`. */
export interface NameSpans {
  bytes: Buffer;
  starts: Int32Array;
  ends: Int32Array;
  count: number;
}

/** A DataView of the whole buffer, for `hashBytes` and `ByteNameIndex.find`. */
export function dataViewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Printable ASCII but quote and backslash: JSON writes the byte as it is. */
export function isPlainByte(byte: number): boolean {
  return byte >= 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x5c;
}

export function isPlainName(name: string): boolean {
  for (let i = 0; i < name.length; i++) if (!isPlainByte(name.charCodeAt(i))) return false;
  return true;
}

export function isPlainSpan(spans: NameSpans, i: number): boolean {
  const { bytes } = spans;
  for (let at = spans.starts[i] as number; at < (spans.ends[i] as number); at++) if (!isPlainByte(bytes[at] as number)) return false;
  return true;
}

/** The name of a span whose bytes are plain (ASCII, so latin1 is exact). */
export function spanName(spans: NameSpans, i: number): string {
  return spans.bytes.toString('latin1', spans.starts[i], spans.ends[i]);
}
