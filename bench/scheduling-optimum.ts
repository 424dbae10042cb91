/**
 * The exact optimum for small plain-pod instances: min over set partitions of the pods of Σ cheapest type
 * fitting each part, by dynamic programming over subsets (3^n; n ≤ 12 → ~0.5 M steps).
 */
import type { InstanceType } from '../src/domain/instancetypes/types.js';

export interface SmallPod {
  cpu: number; // millicores
  memory: number; // bytes
}

export function optimumPrice(pods: readonly SmallPod[], types: readonly InstanceType[]): number {
  const n = pods.length;
  const full = (1 << n) - 1;
  const partCost = new Float64Array(1 << n);
  for (let mask = 1; mask <= full; mask++) {
    let cpu = 0;
    let memory = 0;
    let count = 0;
    for (let i = 0; i < n; i++) {
      if (mask & (1 << i)) {
        cpu += (pods[i] as SmallPod).cpu;
        memory += (pods[i] as SmallPod).memory;
        count++;
      }
    }
    let best = Infinity;
    for (const t of types) {
      const price = Math.min(...t.offerings.filter((o) => o.available).map((o) => o.pricePerHour));
      if (cpu <= (t.allocatable.cpu ?? 0) && memory <= (t.allocatable.memory ?? 0) && count <= (t.allocatable.pods ?? 0) && price < best)
        best = price;
    }
    partCost[mask] = best;
  }
  const best = new Float64Array(1 << n).fill(Infinity);
  best[0] = 0;
  for (let mask = 1; mask <= full; mask++) {
    const low = mask & -mask; // the part holding the lowest pod: each partition is counted once
    for (let sub = mask; sub > 0; sub = (sub - 1) & mask) {
      if (!(sub & low)) continue;
      const cost = (partCost[sub] as number) + (best[mask ^ sub] as number);
      if (cost < (best[mask] as number)) best[mask] = cost;
    }
  }
  return best[full] as number;
}
