/**
 * Printing quantities as k8s Quantity.String(): the parsed text when Kubernetes keeps it, else the
 * canonical form (CanonicalizeBytes): the mantissa with its power of ten lowered to a multiple of 3 and
 * the SI suffix (1.5 → 1500m, 1000M → 1G), or for BinarySI whole values ≥ 1024 the largest power of
 * 1024 (1024Ki → 1Mi); small or fractional binary values print as DecimalSI.
 */
import { type Quantity, NANOS_PER_UNIT } from './quantity.js';
import { binarySuffix, decimalSuffix } from './suffix.js';

const binaryThresholdNanos = 1024n * NANOS_PER_UNIT;

export function formatQuantity(quantity: Quantity): string {
  return quantity.text ?? canonicalQuantity(quantity);
}

/** The canonical text, ignoring any kept input text ("+1" → "1", "1E3" → "1e3"). */
export function canonicalQuantity(quantity: Quantity): string {
  const { nanos } = quantity;
  if (nanos === 0n) return '0';
  const negative = nanos < 0n;
  const magnitude = negative ? -nanos : nanos;
  const sign = negative ? '-' : '';
  if (quantity.format === 'BinarySI' && magnitude >= binaryThresholdNanos && magnitude % NANOS_PER_UNIT === 0n) {
    return sign + binaryCanonical(magnitude / NANOS_PER_UNIT);
  }
  return sign + decimalCanonical(magnitude, quantity.format === 'DecimalExponent');
}

function binaryCanonical(value: bigint): string {
  let mantissa = value;
  let exponent = 0;
  // Kubernetes has no suffix past Ei; stop there so the text always parses back.
  while (exponent < 60 && mantissa >= 1024n && mantissa % 1024n === 0n) {
    mantissa /= 1024n;
    exponent += 10;
  }
  return `${mantissa}${binarySuffix(exponent) ?? ''}`;
}

function decimalCanonical(magnitudeNanos: bigint, asExponent: boolean): string {
  const text = magnitudeNanos.toString();
  let zeros = 0;
  while (zeros < text.length - 1 && text.charCodeAt(text.length - 1 - zeros) === 48) zeros++;
  let exponent = zeros - 9;
  const lowerBy = ((exponent % 3) + 3) % 3;
  exponent -= lowerBy;
  const mantissa = text.slice(0, text.length - zeros) + '0'.repeat(lowerBy);
  if (asExponent) return exponent === 0 ? mantissa : `${mantissa}e${exponent}`;
  const suffix = decimalSuffix(exponent);
  if (suffix !== undefined) return mantissa + suffix;
  // Past 10^18 Kubernetes finds no SI suffix and would drop the exponent; print it with E so it parses back.
  return mantissa + '0'.repeat(exponent - 18) + 'E';
}
