/**
 * Start-up time of the three cloud emulators side by side on ephemeral loopback ports (issue 3: all three
 * under 1 s). The first round includes module loading, catalog parsing and CA generation for OVH; later rounds
 * show the warm cost.   Run: npm run bench:emulators
 */
import { startOvhcloudEmulator } from '../src/testbed/emulators/ovhcloud/index.js';
import { startScalewayEmulator } from '../src/testbed/emulators/scaleway/index.js';
import { startOutscaleEmulator } from '../src/testbed/emulators/outscale/index.js';

const rounds = Number(process.env.ROUNDS ?? 10);

async function startAllThree(): Promise<number> {
  const t0 = performance.now();
  const emulators = await Promise.all([startOvhcloudEmulator({}), startScalewayEmulator({}), startOutscaleEmulator({})]);
  const elapsed = performance.now() - t0;
  const ports = new Set(emulators.map((e) => new URL(e.url).port));
  if (ports.size !== 3) throw new Error(`expected three distinct ports, got ${[...ports].join(', ')}`);
  await Promise.all(emulators.map((e) => e.close()));
  return elapsed;
}

const timings: number[] = [];
for (let i = 0; i < rounds; i++) timings.push(await startAllThree());
const warm = timings.slice(1).sort((a, b) => a - b);
const median = warm[Math.floor(warm.length / 2)] ?? timings[0]!;
console.log(`emulators: all three started side by side`);
console.log(`  cold (first round, incl. catalogs + OVH CA): ${timings[0]!.toFixed(1)} ms`);
console.log(`  warm median over ${warm.length} rounds:       ${median.toFixed(1)} ms (max ${Math.max(...warm).toFixed(1)} ms)`);
console.log(`  target: < 1000 ms — ${timings[0]! < 1000 ? 'met' : 'NOT met'}`);
