import { it } from 'vitest';
import { bringUp, converged, createPod, gpuPod } from './harness/workload.js';
import { startChaosWorld } from './harness/world.js';
it('gpu outscale', { timeout: 200_000 }, async () => {
  const world = await startChaosWorld({ cloud: 'outscale' });
  try {
    await bringUp(world);
    await createPod(world, gpuPod('outscale', 'gpu'));
    await converged(world, 40_000);
  } finally {
    await world.close();
  }
});
