/**
 * JSON.parse for the extender's request bodies, without first turning the whole body into one string.
 *
 * Why: with 5,000 node names the body is ~210 KiB. A string that large is a V8 large object, and making
 * one takes fresh pages for every allocation, where a string of a few KiB does not — the largest part of a
 * NodeNames call. So the top-level object is walked on the bytes, and every member but the node
 * names is handed to JSON.parse on its own slice (which also validates it). The names are either small
 * strings (`parseJsonBody`) or, where the view can find nodes by their bytes, left where they lie as spans
 * (`walkNodeNamesBody`), so no string is made per name at all.
 *
 * The result is always JSON.parse's: anything the walk does not take in its stride (another top-level
 * value, escapes or non-ASCII in a name, full Nodes, a malformed body) goes through JSON.parse of the
 * whole body, whose error message a bad body then gets.
 */
import { type NameSpans, readNameSpans } from '../../src/byte-path/index.js';
import { checkJsonDepth, JsonDepthError, MaxJsonDepth } from '../shared/json-depth.js';

const Tab = 0x09;
const LineFeed = 0x0a;
const CarriageReturn = 0x0d;
const Space = 0x20;
const Quote = 0x22;
const Comma = 0x2c;
const Colon = 0x3a;
const OpenBracket = 0x5b;
const Backslash = 0x5c;
const CloseBracket = 0x5d;
const OpenBrace = 0x7b;
const CloseBrace = 0x7d;
/** The first byte of `null`. */
const LetterN = 0x6e;

/** The walk met something it leaves to JSON.parse of the whole body. */
class NotOnFastPath extends Error {}

function notOnFastPath(): never {
  throw new NotOnFastPath();
}

function isWhitespace(byte: number | undefined): boolean {
  return byte === Space || byte === LineFeed || byte === CarriageReturn || byte === Tab;
}

class BodyWalk {
  private at = 0;
  /** Set when NodeNames are collected as spans (walkNodeNamesBody). */
  names: NameSpans | undefined;

  constructor(
    private readonly bytes: Buffer,
    private readonly namesAsSpans = false,
  ) {
    // body-parser dropped a UTF-8 byte order mark before JSON.parse; so does this.
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) this.at = 3;
  }

  document(): Record<string, unknown> {
    this.skipWhitespace();
    const object = this.topLevelObject();
    this.skipWhitespace();
    if (this.at !== this.bytes.length) notOnFastPath();
    return object;
  }

  private skipWhitespace(): void {
    while (isWhitespace(this.bytes[this.at])) this.at++;
  }

  private expect(byte: number): void {
    if (this.bytes[this.at] !== byte) notOnFastPath();
    this.at++;
  }

  /** `open item (, item)* close` or `open close`; `item` reads one item from its first byte. */
  private sequence(open: number, close: number, item: () => void): void {
    this.expect(open);
    this.skipWhitespace();
    if (this.bytes[this.at] === close) {
      this.at++;
      return;
    }
    for (;;) {
      this.skipWhitespace();
      item();
      this.skipWhitespace();
      if (this.bytes[this.at] === close) {
        this.at++;
        return;
      }
      this.expect(Comma);
    }
  }

  private topLevelObject(): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    this.sequence(OpenBrace, CloseBrace, () => {
      const key = this.plainString();
      this.skipWhitespace();
      this.expect(Colon);
      this.skipWhitespace();
      const name = key.toLowerCase();
      // Full Nodes (nodeCacheCapable: false): the Node objects are the body, one JSON.parse of it all is cheapest.
      if (name === 'nodes' && this.bytes[this.at] !== LetterN) notOnFastPath();
      if (name === 'nodenames' && this.namesAsSpans) {
        this.names = this.nameSpans();
        return;
      }
      const value = name === 'nodenames' ? this.nameList() : this.anyValue();
      // JSON.parse makes "__proto__" an own member, not the object's prototype.
      if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
      else object[key] = value;
    });
    return object;
  }

  /** A string of printable ASCII without escapes (every node name), else left to JSON.parse. */
  private plainString(): string {
    const { bytes } = this;
    this.expect(Quote);
    const start = this.at;
    for (let i = start; i < bytes.length; i++) {
      const byte = bytes[i] as number;
      if (byte === Quote) {
        this.at = i + 1;
        return bytes.toString('latin1', start, i);
      }
      if (byte < Space || byte >= 0x7f || byte === Backslash) notOnFastPath();
    }
    return notOnFastPath();
  }

  /** NodeNames: null or an array of plain strings; any other value is taken as it is by anyValue. */
  private nameList(): unknown {
    if (this.bytes[this.at] !== OpenBracket) return this.anyValue();
    const from = this.at;
    try {
      return this.plainStrings();
    } catch (error) {
      if (!(error instanceof NotOnFastPath)) throw error;
      this.at = from;
      return this.anyValue();
    }
  }

  private plainStrings(): string[] {
    const list: string[] = [];
    this.sequence(OpenBracket, CloseBracket, () => void list.push(this.plainString()));
    return list;
  }

  /** NodeNames as spans (readNameSpans), and the only NodeNames member; else left to the general walk. */
  private nameSpans(): NameSpans {
    if (this.names) notOnFastPath();
    const read = readNameSpans(this.bytes, this.at);
    if (!read) return notOnFastPath();
    this.at = read.end;
    return read.names;
  }

  /** One JSON value, parsed (and validated) by JSON.parse on its own bytes. */
  private anyValue(): unknown {
    const start = this.at;
    this.at = valueEnd(this.bytes, start);
    return JSON.parse(this.bytes.toString('utf8', start, this.at));
  }
}

/** Where the value starting at `start` ends, for well-formed JSON; JSON.parse of the slice catches the rest. */
function valueEnd(bytes: Buffer, start: number): number {
  const first = bytes[start];
  if (first === Quote) return stringEnd(bytes, start);
  if (first !== OpenBrace && first !== OpenBracket) {
    let i = start;
    while (i < bytes.length && !isWhitespace(bytes[i]) && bytes[i] !== Comma && bytes[i] !== CloseBrace && bytes[i] !== CloseBracket) i++;
    return i;
  }
  // A member of the top-level object: one level is open around it.
  let depth = 1;
  for (let i = start; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === Quote) i = stringEnd(bytes, i) - 1;
    else if (byte === OpenBrace || byte === OpenBracket) {
      if (++depth > MaxJsonDepth) throw new JsonDepthError(i);
    } else if ((byte === CloseBrace || byte === CloseBracket) && --depth === 1) return i + 1;
  }
  return notOnFastPath();
}

/** The index after the closing quote of the string opening at `start`. */
function stringEnd(bytes: Buffer, start: number): number {
  for (let i = start + 1; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === Backslash) i++;
    else if (byte === Quote) return i + 1;
  }
  return notOnFastPath();
}

/** A body that is not JSON; `status` 400 for the error handler, the message says where it broke. */
export class JsonBodyError extends Error {
  readonly status = 400;
}

/** A NodeNames body: its other top-level members as JSON.parse gives them, its names as spans of the body. */
export interface WalkedNodeNames {
  members: Record<string, unknown>;
  names: NameSpans;
}

/**
 * The body read for the view's by-bytes lookup: a JSON object with one NodeNames member, an array of plain
 * names (every Kubernetes node name), and no full Nodes. Undefined for any other body, which parseJsonBody
 * then reads (and, when it is not JSON, refuses).
 */
export function walkNodeNamesBody(bytes: Buffer): WalkedNodeNames | undefined {
  const walk = new BodyWalk(bytes, true);
  try {
    const members = walk.document();
    return walk.names ? { members, names: walk.names } : undefined;
  } catch (error) {
    if (error instanceof JsonDepthError) throw error;
    return undefined;
  }
}

/** The value JSON.parse gives for the UTF-8 body (BOM dropped), or JsonBodyError. */
export function parseJsonBody(bytes: Buffer): unknown {
  try {
    return new BodyWalk(bytes).document();
  } catch (error) {
    if (error instanceof JsonDepthError) throw error;
    // Not the extender's usual shape, or not JSON: JSON.parse decides, and names the problem.
  }
  checkJsonDepth(bytes);
  const text = bytes.toString('utf8');
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new JsonBodyError(`body is not valid JSON: ${(error as Error).message}`);
  }
}
