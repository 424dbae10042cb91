/**
 * Reads a JSON array of node names as spans of the body (name-spans.ts), without making a string per name.
 * Each name's end is found by Node's native search for the next quote, and the whole array is checked once
 * for backslashes and non-ASCII, where a byte loop in JS over a body of thousands of names would cost more
 * than the rest of the body's walk.
 */
import { isAscii } from 'node:buffer';
import { grown } from '../util/typed-arrays.js';
import type { NameSpans } from './name-spans.js';

const Tab = 0x09;
const LineFeed = 0x0a;
const CarriageReturn = 0x0d;
const Space = 0x20;
const Quote = 0x22;
const Comma = 0x2c;
const OpenBracket = 0x5b;
const Backslash = 0x5c;
const CloseBracket = 0x5d;

function isWhitespace(byte: number | undefined): boolean {
  return byte === Space || byte === LineFeed || byte === CarriageReturn || byte === Tab;
}

/** Spans of names in a body, grown as they are found. */
class SpanList {
  private starts: Int32Array;
  private ends: Int32Array;
  private count = 0;

  /** `capacity`: the expected count, from the body's size (a node name and its punctuation are ~30–60 bytes). */
  constructor(capacity: number) {
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
  }

  push(start: number, end: number): void {
    if (this.count === this.starts.length) {
      this.starts = grown(this.starts, 0);
      this.ends = grown(this.ends, 0);
    }
    this.starts[this.count] = start;
    this.ends[this.count++] = end;
  }

  spans(bytes: Buffer): NameSpans {
    return { bytes, starts: this.starts, ends: this.ends, count: this.count };
  }
}

/** Where the whitespace from `at` ends. */
function skipWhitespace(bytes: Buffer, at: number): number {
  while (isWhitespace(bytes[at])) at++;
  return at;
}

/**
 * The array of strings opening at `from` (its `[`) as spans, and the index after its `]`; undefined unless
 * it is an array of strings without escapes or non-ASCII bytes (then each string's bytes are its value).
 */
export function readNameSpans(bytes: Buffer, from: number): { names: NameSpans; end: number } | undefined {
  if (bytes[from] !== OpenBracket) return undefined;
  const list = new SpanList(Math.max(64, Math.ceil(bytes.length / 32)));
  let at = skipWhitespace(bytes, from + 1);
  if (bytes[at] !== CloseBracket) {
    for (;;) {
      if (bytes[at] !== Quote) return undefined;
      const end = bytes.indexOf(Quote, at + 1);
      if (end < 0) return undefined;
      list.push(at + 1, end);
      at = skipWhitespace(bytes, end + 1);
      if (bytes[at] === CloseBracket) break;
      if (bytes[at] !== Comma) return undefined;
      at = skipWhitespace(bytes, at + 1);
    }
  }
  at++;
  const array = bytes.subarray(from, at);
  // Without a backslash every quote found ends its string; without non-ASCII, bytes are characters.
  if (array.indexOf(Backslash) >= 0 || !isAscii(array)) return undefined;
  return { names: list.spans(bytes), end: at };
}
