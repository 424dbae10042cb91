/** Quantity suffixes as resource.quantitySuffixer interprets them. */
import type { QuantityFormat } from './quantity.js';

export interface SuffixMeaning {
  base: 2 | 10;
  exponent: number;
  format: QuantityFormat;
}

const decimalExponents: Readonly<Record<string, number>> = {
  '': 0,
  n: -9,
  u: -6,
  m: -3,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const binaryExponents: Readonly<Record<string, number>> = {
  Ki: 10,
  Mi: 20,
  Gi: 30,
  Ti: 40,
  Pi: 50,
  Ei: 60,
};
const decimalSuffixByExponent = new Map<number, string>(Object.entries(decimalExponents).map(([s, e]) => [e, s]));
const binarySuffixByExponent = new Map<number, string>(Object.entries(binaryExponents).map(([s, e]) => [e, s]));

const int64Pattern = /^[+-]?[0-9]+$/;
const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** The meaning of a suffix, or undefined when Kubernetes rejects it. */
export function interpretSuffix(suffix: string): SuffixMeaning | undefined {
  const decimal = decimalExponents[suffix];
  if (decimal !== undefined) return { base: 10, exponent: decimal, format: 'DecimalSI' };
  const binary = binaryExponents[suffix];
  if (binary !== undefined) return { base: 2, exponent: binary, format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E')) {
    const digits = suffix.slice(1);
    if (!int64Pattern.test(digits)) return undefined;
    const parsed = BigInt(digits);
    if (parsed < int64Min || parsed > int64Max) return undefined;
    // Kubernetes narrows the exponent with int32(parsed): keep its wrap-around.
    return { base: 10, exponent: Number(BigInt.asIntN(32, parsed)), format: 'DecimalExponent' };
  }
  return undefined;
}

/** The SI suffix for a power of ten that is a multiple of 3 in [-9, 18], else undefined. */
export function decimalSuffix(exponent: number): string | undefined {
  return decimalSuffixByExponent.get(exponent);
}

/** The binary suffix for a power of two that is a multiple of 10 in [0, 60], else undefined. */
export function binarySuffix(exponent: number): string | undefined {
  return binarySuffixByExponent.get(exponent);
}
