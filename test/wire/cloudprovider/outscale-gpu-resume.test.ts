/**
 * Flexible GPUs across a process that dies mid-launch: CreateFlexibleGpu has no idempotency key and a GPU is
 * billed while allocated, linked or not. A launch stopped after any of its calls and then deleted instead of
 * resumed must leave no VM and no GPU. (Resumed, it ends with exactly the GPUs its VM needs: the contract's
 * accelerator case.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LabelInstanceGPUName, LabelTopologyZone } from '../../../src/apis/v1/labels.js';
import { isNodeClaimNotFoundError } from '../../../src/cloudprovider/errors.js';
import type { CloudProvider, CloudProviderNodeClaim } from '../../../src/cloudprovider/types.js';
import { haltAfter } from '../../../src/testbed/emulators/faults.js';
import { startOutscaleTestbed, type OutscaleTestbed } from './outscale-testbed.js';

/** Stopping points tried: more calls than a GPU launch makes. */
const MaxCalls = 60;

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
  tracked.catch(() => undefined); // rejections are the caller's, once returned
  while (!done) {
    await new Promise((resolve) => setImmediate(resolve));
    if (b.clock.waiting > 0) b.clock.step(1_000);
  }
  return tracked;
}

async function settled<T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false }> {
  try {
    return { ok: true, value: await promise };
  } catch {
    return { ok: false };
  }
}

function gpuClaim(b: OutscaleTestbed, name: string): CloudProviderNodeClaim {
  const zone = b.emulator.subregions[0] as string;
  return b.nodeClaim(
    name,
    [
      { key: LabelInstanceGPUName, operator: 'In', values: ['v100'] },
      { key: LabelTopologyZone, operator: 'In', values: [zone] },
    ],
    { cpu: '1', 'nvidia.com/gpu': '1' },
  );
}

/** The launch of `nodeClaim` by a process that dies after its `calls`-th cloud call; true when it ran through. */
async function killedLaunch(b: OutscaleTestbed, nodeClaim: CloudProviderNodeClaim, calls: number): Promise<boolean> {
  const rule = b.emulator.faults.add(haltAfter(calls));
  const outcome = await driveClock(b, settled(b.restart().create(nodeClaim)));
  b.emulator.faults.remove(rule);
  return outcome.ok;
}

/** Deletes until the provider says the instance is gone, as termination does. */
async function deleteUntilGone(b: OutscaleTestbed, provider: CloudProvider, nodeClaim: CloudProviderNodeClaim): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    try {
      await driveClock(b, provider.delete(nodeClaim));
    } catch (error) {
      if (isNodeClaimNotFoundError(error)) return;
      throw error;
    }
    b.settle();
  }
  throw new Error(`nodeclaim ${nodeClaim.metadata?.name ?? ''} still not gone after 10 deletes`);
}

describe('Outscale flexible GPUs across a restart mid-launch', () => {
  it('a GPU launch stopped after each of its calls, then its NodeClaim deleted by a new process: no VM and no GPU left', async () => {
    const b = (bed = await startOutscaleTestbed());
    let ranThrough = false;
    for (let calls = 0; calls < MaxCalls && !ranThrough; calls += 1) {
      const nodeClaim = gpuClaim(b, `gpu-deleted-${calls}`);
      ranThrough = await killedLaunch(b, nodeClaim, calls);
      await deleteUntilGone(b, b.restart(), nodeClaim);
      b.settle();
      expect(b.liveVms(), `vms after a stop after call ${calls}`).toEqual([]);
      expect(b.emulator.state().flexibleGpus, `gpus after a stop after call ${calls}`).toEqual([]);
    }
    expect(ranThrough).toBe(true);
  }, 60_000);
});
