/**
 * GPU nodes through flexible GPUs: the VM is created stopped with performance highest (p1); once it is
 * stopped, the missing fGPUs are created (DeleteOnVmDeletion, so they go with the VM), tagged for the
 * NodeClaim and linked, then the VM is started — a link only completes on a stopped VM. Every step is
 * re-entrant: a retried or resumed create counts the fGPUs already linked, links the unlinked ones tagged
 * for its NodeClaim before creating any (`gpu-claims.ts`), and starts the VM only when it is still stopped.
 */
import type { Clock } from '../../util/clock.js';
import { CreateError, type OfferingKey } from '../errors.js';
import type { OutscaleApi } from './api.js';
import type { Vm } from './api-types.js';
import type { OutscaleCaller } from './calls.js';
import {
  adoptUntagged,
  clearGpuPending,
  deleteGpu,
  gpusOf,
  hasPendingGpu,
  isUnlinked,
  markGpuPending,
  tagForOwner,
  TagGpuPending,
  type GpuClaimDeps,
  type GpuOwner,
} from './gpu-claims.js';
import { OutscaleResponseError } from './errors.js';
import type { LaunchShape } from './instancetypes.js';

type FlexibleGpuShape = NonNullable<LaunchShape['flexibleGpu']>;

export interface GpuAttachDeps {
  api: OutscaleApi;
  call: OutscaleCaller;
  clock: Clock;
  /** How often the VM's state is read while waiting for it to stop. */
  pollIntervalMs: number;
  /** How long a new VM may take to reach `stopped`. */
  stopTimeoutMs: number;
}

async function readVm(deps: GpuAttachDeps, vmId: string): Promise<Vm | undefined> {
  const vms = await deps.call(`reading vm ${vmId}`, () => deps.api.readAllVms({ Filters: { VmIds: [vmId] } }));
  return vms[0];
}

async function waitUntilSettled(deps: GpuAttachDeps, vm: Vm): Promise<Vm> {
  const deadline = deps.clock.now() + deps.stopTimeoutMs;
  let current: Vm | undefined = vm;
  while (current?.State === 'pending' || current?.State === 'stopping') {
    if (deps.clock.now() >= deadline) break;
    await deps.clock.sleep(deps.pollIntervalMs);
    current = (await readVm(deps, vm.VmId)) ?? current;
  }
  if (!current || (current.State !== 'stopped' && current.State !== 'running')) {
    throw new CreateError(`attaching flexible gpus to vm ${vm.VmId}: the vm is ${current?.State ?? 'gone'}, expected stopped`, {
      reason: 'FlexibleGpuAttachFailed',
      message: `vm ${vm.VmId} did not stop within ${deps.stopTimeoutMs} ms (state ${current?.State ?? 'gone'})`,
    });
  }
  return current;
}

/** The GPUs a launch wants: their shape, the offering their creation is charged to, the NodeClaim owning them. */
interface GpuRequest {
  gpu: FlexibleGpuShape;
  offering: OfferingKey;
  owner: GpuOwner;
}

/** Its own calls, unretried: inside an attempt of a retried call, a failure is that attempt's. */
const attemptOnly = (deps: GpuAttachDeps): GpuClaimDeps => ({ api: deps.api, call: (_operation, fn) => fn() });

/**
 * Creates one GPU for the VM (marked pending) and tags it for its NodeClaim at once; a GPU whose tagging failed
 * is given back. CreateFlexibleGpu takes no idempotency key: an attempt whose answer was lost, empty or cut short
 * may have made a GPU, so the next attempt first takes an untagged GPU of the shape, and creates only if none.
 */
async function createTagged(deps: GpuAttachDeps, vm: Vm, { gpu, offering, owner }: GpuRequest): Promise<string> {
  let asked = false;
  const made = await deps.call(
    `creating flexible gpu ${gpu.modelName} for vm ${vm.VmId}`,
    async () => {
      if (asked) {
        const [lost] = await adoptUntagged(attemptOnly(deps), vm, gpu.modelName, 1, owner);
        if (lost) return { id: lost.FlexibleGpuId, tagged: true };
      }
      asked = true;
      const answer = await deps.api.createFlexibleGpu({
        ModelName: gpu.modelName,
        SubregionName: vm.Placement.SubregionName,
        Generation: gpu.generation,
        DeleteOnVmDeletion: true,
      });
      const id = answer?.FlexibleGpu?.FlexibleGpuId;
      if (!id) throw new OutscaleResponseError('CreateFlexibleGpu', 200, 'the answer names no FlexibleGpu');
      return { id, tagged: false };
    },
    offering,
  );
  if (made.tagged) return made.id;
  try {
    await tagForOwner(deps, [made.id], owner);
  } catch (err) {
    await deleteGpu(deps, made.id).catch(() => undefined);
    throw err;
  }
  return made.id;
}

/**
 * The unlinked GPUs this launch can link: those tagged for its NodeClaim, then those a dead process created
 * without tagging, then new ones (the VM marked while any may be untagged).
 */
async function gpusToLink(deps: GpuAttachDeps, vm: Vm, request: GpuRequest, missing: number): Promise<string[]> {
  const { gpu, owner } = request;
  const spare = (await gpusOf(deps, owner)).filter(
    (g) => isUnlinked(g) && g.ModelName === gpu.modelName && g.SubregionName === vm.Placement.SubregionName,
  );
  spare.push(...(await adoptUntagged(deps, vm, gpu.modelName, missing - spare.length, owner)));
  const ids = spare.slice(0, missing).map((g) => g.FlexibleGpuId);
  if (ids.length === missing && !hasPendingGpu(vm)) return ids;
  if (ids.length < missing) {
    if (!hasPendingGpu(vm)) await markGpuPending(deps, vm.VmId);
    const pending: Vm = hasPendingGpu(vm) ? vm : { ...vm, Tags: [...vm.Tags, { Key: TagGpuPending, Value: 'true' }] };
    while (ids.length < missing) ids.push(await createTagged(deps, pending, request));
  }
  await clearGpuPending(deps, vm.VmId);
  return ids;
}

/** Links the fGPUs the launch shape wants and boots the VM; resolves with the VM as last read. */
export async function attachFlexibleGpus(
  deps: GpuAttachDeps,
  vm: Vm,
  shape: LaunchShape,
  offering: OfferingKey,
  owner: GpuOwner,
): Promise<Vm> {
  const gpu = shape.flexibleGpu;
  if (!gpu) return vm;
  const settled = await waitUntilSettled(deps, vm);
  const linked = await deps.call(`reading flexible gpus of vm ${vm.VmId}`, () =>
    deps.api.readFlexibleGpus({ Filters: { VmIds: [vm.VmId] } }),
  );
  const missing = gpu.count - linked.FlexibleGpus.length;
  if (missing > 0 && settled.State === 'running') {
    throw new CreateError(
      `attaching flexible gpus to vm ${vm.VmId}: the vm is running with ${linked.FlexibleGpus.length} of ${gpu.count} gpus`,
      {
        reason: 'FlexibleGpuAttachFailed',
        message: `vm ${vm.VmId} booted before its ${gpu.modelName} gpus were linked`,
      },
    );
  }
  if (missing > 0) {
    // A GPU whose link fails stays tagged for the NodeClaim: the next attempt links it, a delete releases it.
    for (const id of await gpusToLink(deps, settled, { gpu, offering, owner }, missing)) {
      await deps.call(`linking flexible gpu ${id} to vm ${vm.VmId}`, () => deps.api.linkFlexibleGpu({ FlexibleGpuId: id, VmId: vm.VmId }));
    }
  }
  if (settled.State === 'stopped') {
    await deps.call(`starting vm ${vm.VmId}`, () => deps.api.startVms({ VmIds: [vm.VmId] }));
  }
  return (await readVm(deps, vm.VmId)) ?? settled;
}
