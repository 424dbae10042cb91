/** Candidate orderings shared by the methods; ties broken by name so decisions are deterministic. */
import type { Candidate } from './types.js';

/** Upstream v1 order: cheapest to disrupt first; then the most expensive node first (more savings). */
export function byDisruptionOrder(a: Candidate, b: Candidate): number {
  return a.disruptionCost - b.disruptionCost || b.pricePerHour - a.pricePerHour || a.name.localeCompare(b.name);
}

/** Round-robin across NodePools (upstream single-node interleaving), keeping each pool's own order. */
export function interleaveByNodePool(sorted: readonly Candidate[]): Candidate[] {
  const byPool = new Map<string, Candidate[]>();
  for (const c of sorted) byPool.set(c.nodePool, [...(byPool.get(c.nodePool) ?? []), c]);
  const queues = [...byPool.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, q]) => q);
  const out: Candidate[] = [];
  for (let i = 0; out.length < sorted.length; i++) {
    for (const q of queues) if (i < q.length) out.push(q[i] as Candidate);
  }
  return out;
}
