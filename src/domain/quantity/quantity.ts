/**
 * A Kubernetes resource quantity held exactly: `nanos` is the value in units of 10^-9 (every quantity
 * Kubernetes accepts is rounded up to a multiple of 1n on parse, so nothing finer is ever needed).
 * `format` is the notation the quantity prints in (k8s resource.Format). `text` is the string it was
 * parsed from when Kubernetes would keep it verbatim (its cached canonical string), so printing
 * round-trips exactly as `Quantity.String()` does.
 */
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface Quantity {
  readonly nanos: bigint;
  readonly format: QuantityFormat;
  readonly text?: string;
}

export const NANOS_PER_UNIT = 1_000_000_000n;
export const NANOS_PER_MILLI = 1_000_000n;

export const zeroQuantity: Quantity = { nanos: 0n, format: 'DecimalSI' };

/** A quantity of `value` base units (cores, bytes, counts) in the given notation. */
export function quantityFromValue(value: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
  return { nanos: toBigInt(value, 'value') * NANOS_PER_UNIT, format };
}

/** A quantity of `milli` thousandths (millicores for cpu). */
export function quantityFromMilli(milli: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
  return { nanos: toBigInt(milli, 'milli value') * NANOS_PER_MILLI, format };
}

function toBigInt(value: number | bigint, what: string): bigint {
  if (typeof value === 'bigint') return value;
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`creating quantity: ${what} ${value} is not a safe integer; pass an integer or a bigint`);
  }
  return BigInt(value);
}
