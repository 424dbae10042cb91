/** How a conflict between two overlays is told to users: by admission and in the overlay's status. */
import type { OverlayConflict } from './apply.js';

export function conflictMessage(c: OverlayConflict): string {
  const what =
    c.field === 'price'
      ? `both set the price of ${c.instanceType}${c.zone ? ` in ${c.zone}` : ''} (spec.price/spec.priceAdjustment)`
      : `both set spec.capacity '${c.resource ?? ''}' of ${c.instanceType}`;
  return (
    `NodeOverlay ${c.overlay} conflicts with NodeOverlay ${c.with}: at the same weight (${c.weight}) they ${what}; ` +
    `give one of them a higher spec.weight to make it win, or narrow spec.requirements so they select different instance types`
  );
}
