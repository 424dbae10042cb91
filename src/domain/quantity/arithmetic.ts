/**
 * Exact quantity arithmetic and the integer views the scheduler compares (Value, MilliValue), with the
 * rounding of k8s Quantity.ScaledValue: up, away from zero.
 */
import { type Quantity, NANOS_PER_MILLI, NANOS_PER_UNIT } from './quantity.js';

/** a + b; like Quantity.Add, the result keeps a's format unless a is zero. */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  return { nanos: a.nanos + b.nanos, format: a.nanos === 0n ? b.format : a.format };
}

/** a − b; like Quantity.Sub, the result keeps a's format unless a is zero. */
export function subtractQuantities(a: Quantity, b: Quantity): Quantity {
  return { nanos: a.nanos - b.nanos, format: a.nanos === 0n ? b.format : a.format };
}

export function negateQuantity(q: Quantity): Quantity {
  return { nanos: -q.nanos, format: q.format };
}

/** q × factor (an integer). */
export function multiplyQuantity(q: Quantity, factor: number | bigint): Quantity {
  const f = typeof factor === 'bigint' ? factor : BigInt(factor);
  return { nanos: q.nanos * f, format: q.format };
}

/** −1, 0 or 1 as a is less than, equal to or greater than b. */
export function compareQuantities(a: Quantity, b: Quantity): -1 | 0 | 1 {
  return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0;
}

export function quantitiesEqual(a: Quantity, b: Quantity): boolean {
  return a.nanos === b.nanos;
}

export function maxQuantity(a: Quantity, b: Quantity): Quantity {
  return b.nanos > a.nanos ? b : a;
}

export function minQuantity(a: Quantity, b: Quantity): Quantity {
  return b.nanos < a.nanos ? b : a;
}

export function isZeroQuantity(q: Quantity): boolean {
  return q.nanos === 0n;
}

/** ceil(q) away from zero, as a bigint (Quantity.Value without the int64 overflow). */
export function quantityValueBig(q: Quantity): bigint {
  return divideAwayFromZero(q.nanos, NANOS_PER_UNIT);
}

/** ceil(q × 1000) away from zero, as a bigint. */
export function quantityMilliValueBig(q: Quantity): bigint {
  return divideAwayFromZero(q.nanos, NANOS_PER_MILLI);
}

/** Quantity.Value(): base units rounded up (1.5 → 2, 100m → 1, 1Ki → 1024). */
export function quantityValue(q: Quantity): number {
  return Number(quantityValueBig(q));
}

/** Quantity.MilliValue(): thousandths rounded up (0.1m → 1, 1.5 → 1500). */
export function quantityMilliValue(q: Quantity): number {
  return Number(quantityMilliValueBig(q));
}

function divideAwayFromZero(nanos: bigint, unit: bigint): bigint {
  const quotient = nanos / unit;
  if (nanos % unit === 0n) return quotient;
  return nanos > 0n ? quotient + 1n : quotient - 1n;
}
