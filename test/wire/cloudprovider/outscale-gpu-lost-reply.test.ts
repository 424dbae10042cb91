/**
 * A CreateFlexibleGpu the cloud carried out but whose answer never arrived (lost, empty or cut short): the caller
 * cannot tell it from a failure and asks again. CreateFlexibleGpu takes no idempotency key, so the first GPU
 * exists untagged and unlinked, billed while allocated: the launch must end with only the GPUs its VM needs, all
 * linked, none left over.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LabelInstanceGPUName, LabelTopologyZone } from '../../../src/apis/v1/labels.js';
import type { Fault } from '../../../src/testbed/emulators/faults.js';
import { startOutscaleTestbed, type OutscaleTestbed } from './outscale-testbed.js';

let bed: OutscaleTestbed | undefined;

afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

/** Awaits the promise while stepping the fake clock whenever the provider sleeps on it (GPU polling, backoff). */
async function driveClock<T>(b: OutscaleTestbed, promise: Promise<T>): Promise<T> {
  let done = false;
  const tracked = promise.finally(() => {
    done = true;
  });
  tracked.catch(() => undefined);
  while (!done) {
    await new Promise((resolve) => setImmediate(resolve));
    if (b.clock.waiting > 0) b.clock.step(1_000);
  }
  return tracked;
}

const answers: Fault[] = [{ kind: 'lost-reply' }, { kind: 'empty-ok', body: '{}' }, { kind: 'truncated-ok' }];

describe('Outscale flexible GPU whose creation answer is lost', () => {
  for (const fault of answers) {
    it(`${fault.kind}${'body' in fault ? ` ${fault.body}` : ''}: the launch links one GPU and leaves none unlinked`, async () => {
      const b = (bed = await startOutscaleTestbed());
      const zone = b.emulator.subregions[0] as string;
      const claim = b.nodeClaim(
        'gpu-lost-reply',
        [
          { key: LabelInstanceGPUName, operator: 'In', values: ['v100'] },
          { key: LabelTopologyZone, operator: 'In', values: [zone] },
        ],
        { cpu: '1', 'nvidia.com/gpu': '1' },
      );
      b.emulator.faults.add({ match: { action: 'CreateFlexibleGpu' }, times: 1, fault });
      await driveClock(b, b.restart().create(claim));
      b.settle();
      expect(b.liveVms()).toHaveLength(1);
      const vm = b.liveVms()[0];
      expect(vm?.flexibleGpuIds).toHaveLength(1);
      const gpus = b.emulator.state().flexibleGpus;
      expect(gpus.map((g) => ({ id: g.id, vmId: g.vmId }))).toEqual([{ id: vm?.flexibleGpuIds[0], vmId: vm?.id }]);
    }, 60_000);
  }
});
