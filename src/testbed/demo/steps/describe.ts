/** Short texts about NodeClaims for the timeline: "2 × DEV1-M (fr-par-1, fr-par-2) at €0.0198/h". */
import type { LedgerEntry } from '../ledger.js';

export function euros(perHour: number): string {
  return `€${perHour.toFixed(4)}/h`;
}

export function describeClaims(entries: readonly LedgerEntry[]): string {
  const byType = new Map<string, LedgerEntry[]>();
  for (const e of entries) byType.set(e.instanceType ?? '?', [...(byType.get(e.instanceType ?? '?') ?? []), e]);
  return [...byType.entries()]
    .map(([type, list]) => {
      const zones = [...new Set(list.map((e) => e.zone ?? '?'))].sort().join(', ');
      const price = list[0]?.pricePerHour;
      return `${list.length} × ${type} (${list[0]?.cloud ?? '?'}, ${zones})${price === undefined ? '' : ` at ${euros(price)}`}`;
    })
    .join('; ');
}
