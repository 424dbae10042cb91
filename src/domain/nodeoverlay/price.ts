/**
 * The price rule of a NodeOverlay (upstream cloudprovider.AdjustedPrice): `price` replaces the offering's
 * price; `priceAdjustment` adds an amount (`+0.05`, `-0.5`) or a percentage (`+25%`, `-10%`) to it. A result
 * below zero is zero.
 */
import { PriceAdjustmentPattern, PricePattern } from '../../apis/v1alpha1/nodeoverlay.js';

/** What an overlay does to a price: replace it, or adjust it. */
export type PriceChange = { kind: 'price'; value: number } | { kind: 'amount'; value: number } | { kind: 'percent'; value: number };

const priceAdjustment = new RegExp(PriceAdjustmentPattern);
const absolutePrice = new RegExp(PricePattern);

/** Why `value` is not a valid `spec.priceAdjustment`, or undefined when it is. */
export function priceAdjustmentProblem(value: string): string | undefined {
  if (priceAdjustment.test(value)) return undefined;
  return (
    `'${value}' is not a price adjustment: write a signed amount in EUR per hour ('+0.05', '-0.5'), an increase in percent ` +
    `('+25%') or a decrease of at most 100 percent ('-10%', '-100%')`
  );
}

/** Why `value` is not a valid `spec.price`, or undefined when it is. */
export function priceProblem(value: string): string | undefined {
  return absolutePrice.test(value) ? undefined : `'${value}' is not a price: write a non-negative decimal in EUR per hour ('0.05')`;
}

/** The change `spec.price` / `spec.priceAdjustment` describe; undefined when neither is set or valid. */
export function priceChangeOf(spec: { price?: string; priceAdjustment?: string }): PriceChange | undefined {
  if (spec.price !== undefined) return priceProblem(spec.price) ? undefined : { kind: 'price', value: Number(spec.price) };
  const adjustment = spec.priceAdjustment;
  if (adjustment === undefined || priceAdjustmentProblem(adjustment)) return undefined;
  if (adjustment.endsWith('%')) return { kind: 'percent', value: Number(adjustment.slice(0, -1)) };
  return { kind: 'amount', value: Number(adjustment) };
}

export function adjustedPrice(price: number, change: PriceChange): number {
  const adjusted =
    change.kind === 'price' ? change.value : change.kind === 'amount' ? price + change.value : price * (1 + change.value / 100);
  // Rounded off float noise (0.1 × 0.9 = 0.09000000000000001): catalog prices have six decimals at most.
  return adjusted >= 0 ? Math.round(adjusted * 1e10) / 1e10 : 0;
}
