/**
 * parseQuantity: the grammar, rounding and format rules of k8s resource.ParseQuantity, value-exact.
 *
 * Kubernetes keeps small values in an int64 "fast path" and the rest in an arbitrary-precision decimal;
 * both mean the same number (the exact value rounded up, away from zero, to 1n). The fast path matters
 * only for two observable quirks we reproduce: which inputs keep their original text when printed, and
 * that a numeric part without any digit ("Ei", "-Pi", "e-10") is rejected only on the slow path.
 */
import { MaxQuantityLength } from '../../apis/schema/string-limits.js';
import { QuantityParseError } from './errors.js';
import { type Quantity, NANOS_PER_UNIT } from './quantity.js';
import { interpretSuffix } from './suffix.js';

interface ScannedQuantity {
  positive: boolean;
  /** Integer digits with leading zeros removed ("0" when none are left). */
  num: string;
  /** Fraction digits, possibly empty. */
  denom: string;
  suffix: string;
  /** Whether the numeric part holds at least one digit (the slow path rejects it otherwise). */
  hasDigit: boolean;
}

const suffixLetters = 'eEinumkKMGTP';
const maxBinaryValue = 2n ** 63n - 1n;
const maxBinaryNanos = maxBinaryValue * NANOS_PER_UNIT;
/** Beyond 10^4000 a quantity is not a resource amount; refuse it rather than build a huge number. */
const maxDecimalExponent = 4000;

export function parseQuantity(input: string): Quantity {
  if (input.length === 0) throw new QuantityParseError(input, 'format', 'the value is empty');
  // No legitimate quantity comes near the cap; a longer one would cost BigInt work in proportion to its digits.
  if (input.length > MaxQuantityLength) {
    throw new QuantityParseError(
      input,
      'length',
      `the value is ${input.length} characters long; at most ${MaxQuantityLength} are accepted`,
    );
  }
  if (input === '0') return { nanos: 0n, format: 'DecimalSI', text: '0' };
  const scanned = scanQuantity(input);
  const meaning = interpretSuffix(scanned.suffix);
  if (meaning === undefined) {
    throw new QuantityParseError(input, 'suffix', `unable to parse quantity's suffix ${JSON.stringify(scanned.suffix)}`);
  }
  const digits = scanned.num + scanned.denom;
  const fast = meaning.base === 10 ? decimalFastPath(scanned, meaning.exponent) : binaryFastPath(scanned, meaning.exponent);
  if (!fast.taken && !scanned.hasDigit) {
    throw new QuantityParseError(input, 'numeric', 'unable to parse numeric part of quantity (no digits)');
  }
  let nanos =
    meaning.base === 10
      ? scaleToNanos(input, BigInt(digits), meaning.exponent - scanned.denom.length)
      : scaleToNanos(input, BigInt(digits) << BigInt(meaning.exponent), -scanned.denom.length);
  let format = meaning.format;
  if (format === 'BinarySI') {
    if (nanos > maxBinaryNanos) nanos = maxBinaryNanos;
    // A non-zero binary amount below 1 prints as decimal (0.000000000001Ki is 2n).
    if (nanos > 0n && nanos < NANOS_PER_UNIT) format = 'DecimalSI';
  }
  if (!scanned.positive) nanos = -nanos;
  return fast.keepsText ? { nanos, format, text: input } : { nanos, format };
}

/** Whether parsing succeeds; for validation paths that only need a yes/no. */
export function isQuantity(input: string): boolean {
  try {
    parseQuantity(input);
    return true;
  } catch (error) {
    if (error instanceof QuantityParseError) return false;
    throw error;
  }
}

// eslint-disable-next-line complexity -- follows apimachinery's parseQuantityString step by step, so the two can be compared line by line
function scanQuantity(input: string): ScannedQuantity {
  const end = input.length;
  let pos = 0;
  let positive = true;
  if (input[0] === '-') {
    positive = false;
    pos++;
  } else if (input[0] === '+') {
    pos++;
  }
  const digitsStart = pos;
  while (pos < end && input[pos] === '0') pos++;
  if (pos >= end) return { positive, num: '0', denom: '', suffix: '', hasDigit: true };
  const numStart = pos;
  while (pos < end && isDigit(input.charCodeAt(pos))) pos++;
  const num = pos > numStart ? input.slice(numStart, pos) : '0';
  let hasDigit = pos > digitsStart;
  if (pos >= end) return { positive, num, denom: '', suffix: '', hasDigit };
  let denom = '';
  if (input[pos] === '.') {
    const denomStart = ++pos;
    while (pos < end && isDigit(input.charCodeAt(pos))) pos++;
    denom = input.slice(denomStart, pos);
    hasDigit ||= denom.length > 0;
    if (pos >= end) return { positive, num, denom, suffix: '', hasDigit };
  }
  const suffixStart = pos;
  while (pos < end && suffixLetters.includes(input[pos] as string)) pos++;
  if (pos < end && (input[pos] === '-' || input[pos] === '+')) pos++;
  while (pos < end && isDigit(input.charCodeAt(pos))) pos++;
  if (pos < end) {
    throw new QuantityParseError(input, 'format', `unexpected character ${JSON.stringify(input[pos])} at offset ${pos}`);
  }
  return { positive, num, denom, suffix: input.slice(suffixStart), hasDigit };
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

interface FastPath {
  taken: boolean;
  /** Kubernetes caches the input as the printed form when it is already canonical. */
  keepsText: boolean;
}

const notFast: FastPath = { taken: false, keepsText: false };

function decimalFastPath(scanned: ScannedQuantity, exponent: number): FastPath {
  const shifted = scanned.num + scanned.denom;
  const precision = 18 - shifted.length;
  const scale = exponent - scanned.denom.length;
  if (precision < 0 || scale < -9) return notFast;
  const keepsText = scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
  return { taken: true, keepsText };
}

function binaryFastPath(scanned: ScannedQuantity, exponent: number): FastPath {
  if (scanned.denom.length > 0) return notFast;
  const precision = 15 - scanned.num.length - Math.trunc((exponent * 3) / 10) - 1;
  if (precision < 0) return notFast;
  const value = BigInt(scanned.num);
  if (value << BigInt(exponent) > maxBinaryValue) return notFast;
  return { taken: true, keepsText: exponent % 10 === 0 && (value & 7n) !== 0n };
}

/** magnitude × 10^exponent10 in nanos, rounded up to a whole nano as Kubernetes does. */
function scaleToNanos(input: string, magnitude: bigint, exponent10: number): bigint {
  if (magnitude === 0n) return 0n;
  const shift = exponent10 + 9;
  if (shift >= 0) {
    if (shift > maxDecimalExponent) {
      throw new QuantityParseError(input, 'range', `the value exceeds 10^${maxDecimalExponent}`);
    }
    return magnitude * 10n ** BigInt(shift);
  }
  // Any non-zero value smaller than 1n rounds up to 1n; skip building a huge divisor.
  if (-shift > magnitude.toString().length) return 1n;
  const divisor = 10n ** BigInt(-shift);
  const quotient = magnitude / divisor;
  return magnitude % divisor === 0n ? quotient : quotient + 1n;
}
