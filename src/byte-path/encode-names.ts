/**
 * The extender's answers for a NodeNames call whose names stayed spans of the request body
 * (read-name-spans.ts), byte for byte what webhooks/extender/encode.ts writes for the same names as strings
 * (and so what JSON.stringify would send).
 *
 * Why: up to 5,000 names a call. Names and the constants around them are copied four bytes at a time
 * (unaligned little-endian loads and stores through DataViews, one machine instruction each in optimized code)
 * into a buffer of the exact size, which costs less than writing the names as strings or copying them byte by
 * byte (bench:extender compares this path with the string path).
 */
import { ReasonNodeDisrupting, ReasonNodeTerminating, Verdict } from '../domain/extender/index.js';
import { dataViewOf, type NameSpans } from './name-spans.js';

/** An ASCII constant as the words and trailing bytes WordWriter stores. */
interface Constant {
  length: number;
  words: Int32Array;
  rest: Uint8Array;
}

function constant(text: string): Constant {
  const bytes = Buffer.from(text, 'latin1');
  const view = dataViewOf(bytes);
  const words: number[] = [];
  let at = 0;
  for (; at + 4 <= bytes.length; at += 4) words.push(view.getInt32(at, true));
  return { length: bytes.length, words: Int32Array.from(words), rest: Uint8Array.from(bytes.subarray(at)) };
}

const Comma = 0x2c;
const Quote = 0x22;
const Digit0 = 0x30;
const CloseBracket = 0x5d;
const CloseBrace = 0x7d;

const HostHead = constant('{"Host":"');
const NextHostHead = constant(',{"Host":"');
const ScoreHead = constant('","Score":');
const FilterHead = constant('{"Nodes":null,"NodeNames":[');
const FailedHead = constant('],"FailedNodes":{');
const UnresolvableHead = constant('},"FailedAndUnresolvableNodes":{');
const FilterTail = constant('},"Error":""}');
/** `":"<reason>"` after a failed node's name, per verdict. */
const FailedReason = constant(`":${JSON.stringify(ReasonNodeDisrupting)}`);
const UnresolvableReason = constant(`":${JSON.stringify(ReasonNodeTerminating)}`);

/** Writes into a buffer of a size known up front, a word at a time where it can. */
class WordWriter {
  readonly bytes: Buffer;
  private readonly view: DataView;
  at = 0;

  constructor(
    size: number,
    private readonly source: NameSpans,
    private readonly sourceView = dataViewOf(source.bytes),
  ) {
    this.bytes = Buffer.allocUnsafe(size);
    this.view = dataViewOf(this.bytes);
  }

  byte(value: number): void {
    this.bytes[this.at++] = value;
  }

  constant({ length, words, rest }: Constant): void {
    const { view, bytes } = this;
    let at = this.at;
    for (let i = 0; i < words.length; i++, at += 4) view.setInt32(at, words[i] as number, true);
    for (let i = 0; i < rest.length; i++) bytes[at++] = rest[i] as number;
    this.at += length;
  }

  /** The bytes of name `i` of the source spans. */
  name(i: number): void {
    const { view, bytes, sourceView } = this;
    const end = this.source.ends[i] as number;
    let from = this.source.starts[i] as number;
    let at = this.at;
    for (; from + 4 <= end; from += 4, at += 4) view.setInt32(at, sourceView.getInt32(from, true), true);
    for (; from < end; from++) bytes[at++] = this.source.bytes[from] as number;
    this.at = at;
  }

  done(): Buffer {
    return this.bytes.subarray(0, this.at);
  }
}

function nameLength(names: NameSpans, i: number): number {
  return (names.ends[i] as number) - (names.starts[i] as number);
}

/** `[{"Host":<name>,"Score":<score>},…]`, scores 0..99 (the extender's are 0..10). */
export function encodeScoresOfNames(names: NameSpans, scores: Uint8Array): Buffer {
  let size = 2;
  for (let i = 0; i < names.count; i++)
    size += (i > 0 ? NextHostHead : HostHead).length + nameLength(names, i) + ScoreHead.length + ((scores[i] as number) >= 10 ? 2 : 1) + 1;
  const out = new WordWriter(size, names);
  out.byte(0x5b);
  for (let i = 0; i < names.count; i++) {
    out.constant(i > 0 ? NextHostHead : HostHead);
    out.name(i);
    out.constant(ScoreHead);
    const score = scores[i] as number;
    if (score >= 10) out.byte(Digit0 + Math.floor(score / 10));
    out.byte(Digit0 + (score % 10));
    out.byte(CloseBrace);
  }
  out.byte(CloseBracket);
  return out.done();
}

/** Whether the name is all digits: as a JS object key it may be an array index, which objects list first. */
function allDigits(names: NameSpans, i: number): boolean {
  for (let at = names.starts[i] as number; at < (names.ends[i] as number); at++) {
    const byte = names.bytes[at] as number;
    if (byte < Digit0 || byte > Digit0 + 9) return false;
  }
  return true;
}

/**
 * Whether the failed names can be written in input order: as object keys they would be reordered if one were
 * an array index, and merged if one came twice (same slot). Else the caller writes the maps as objects.
 */
export function failedNamesInInputOrder(names: NameSpans, slots: Int32Array, verdicts: Uint8Array, slotLimit: number): boolean {
  let seen: Uint8Array | undefined;
  for (let i = 0; i < names.count; i++) {
    if (verdicts[i] === Verdict.Keep) continue;
    if (allDigits(names, i)) return false;
    // Only nodes the view knows fail, so every failed name has a slot.
    seen ??= new Uint8Array(slotLimit);
    const slot = slots[i] as number;
    if (seen[slot] === 1) return false;
    seen[slot] = 1;
  }
  return true;
}

function failedMapSize(names: NameSpans, verdicts: Uint8Array, verdict: number, reason: Constant): number {
  let size = 0;
  let count = 0;
  for (let i = 0; i < names.count; i++) {
    if (verdicts[i] !== verdict) continue;
    size += 1 + nameLength(names, i) + reason.length;
    count++;
  }
  return size + Math.max(0, count - 1);
}

function writeFailedMap(out: WordWriter, names: NameSpans, verdicts: Uint8Array, verdict: number, reason: Constant): void {
  let first = true;
  for (let i = 0; i < names.count; i++) {
    if (verdicts[i] !== verdict) continue;
    if (!first) out.byte(Comma);
    first = false;
    out.byte(Quote);
    out.name(i);
    out.constant(reason);
  }
}

/**
 * The filter answer `{"Nodes":null,"NodeNames":[kept…],"FailedNodes":{…},"FailedAndUnresolvableNodes":{…},"Error":""}`,
 * for failed names that failedNamesInInputOrder accepted.
 */
export function encodeFilterOfNames(names: NameSpans, verdicts: Uint8Array): Buffer {
  let kept = 0;
  let size = FilterHead.length + FailedHead.length + UnresolvableHead.length + FilterTail.length;
  for (let i = 0; i < names.count; i++) {
    if (verdicts[i] !== Verdict.Keep) continue;
    size += nameLength(names, i) + 2;
    kept++;
  }
  size += Math.max(0, kept - 1);
  size +=
    failedMapSize(names, verdicts, Verdict.Failed, FailedReason) + failedMapSize(names, verdicts, Verdict.Unresolvable, UnresolvableReason);
  const out = new WordWriter(size, names);
  out.constant(FilterHead);
  let first = true;
  for (let i = 0; i < names.count; i++) {
    if (verdicts[i] !== Verdict.Keep) continue;
    if (!first) out.byte(Comma);
    first = false;
    out.byte(Quote);
    out.name(i);
    out.byte(Quote);
  }
  out.constant(FailedHead);
  writeFailedMap(out, names, verdicts, Verdict.Failed, FailedReason);
  out.constant(UnresolvableHead);
  writeFailedMap(out, names, verdicts, Verdict.Unresolvable, UnresolvableReason);
  out.constant(FilterTail);
  return out.done();
}
