/**
 * Which flexible GPUs belong to which NodeClaim. CreateFlexibleGpu takes no idempotency key and no tags, and
 * a GPU is billed while allocated, linked or not: so each GPU is tagged for its NodeClaim (cluster, name,
 * launch token) right after its creation, a retried or resumed launch reuses the unlinked GPUs tagged for
 * it, deleting the NodeClaim releases them, and garbage collection finds those whose NodeClaim is gone.
 *
 * The one step tags cannot cover is a process that dies between CreateFlexibleGpu and its CreateTags. For
 * that window the VM carries `TagGpuPending` from before the first CreateFlexibleGpu until every GPU is
 * tagged; a VM found with it adopts untagged, unlinked GPUs of the same model and subregion created to be
 * deleted with their VM — the shape of what it was creating.
 */
import { isNotFound } from './errors.js';
import type { OutscaleApi } from './api.js';
import type { FlexibleGpu, ResourceTag, Vm } from './api-types.js';
import type { OutscaleCaller } from './calls.js';
import { TagManagedBy } from './instances.js';

/** On a GPU: the NodeClaim it was created for. */
export const TagGpuNodeClaim = 'karpenter-eu.io/flexible-gpu-of';
/** On a GPU: the launch token (NodeClaim UID) of that NodeClaim, so a same-named later NodeClaim never takes it. */
export const TagGpuLaunchToken = 'karpenter-eu.io/flexible-gpu-launch-token';
/** On a VM: a CreateFlexibleGpu for it may have run whose GPU is not tagged yet. */
export const TagGpuPending = 'karpenter-eu.io/flexible-gpu-pending';

export interface GpuOwner {
  clusterName: string;
  nodeClaimName: string;
  /** The NodeClaim's launch token (its UID; the VM's ClientToken). */
  token: string;
}

export interface GpuClaimDeps {
  api: OutscaleApi;
  call: OutscaleCaller;
}

/** A GPU this cluster created for a NodeClaim. */
export interface ClaimedGpu {
  gpu: FlexibleGpu;
  nodeClaimName: string;
}

export function ownerTags(owner: GpuOwner): ResourceTag[] {
  return [
    { Key: TagManagedBy, Value: owner.clusterName },
    { Key: TagGpuNodeClaim, Value: owner.nodeClaimName },
    { Key: TagGpuLaunchToken, Value: owner.token },
  ];
}

export function isUnlinked(gpu: FlexibleGpu): boolean {
  return gpu.State === 'allocated' && !gpu.VmId;
}

async function gpusByIds(deps: GpuClaimDeps, ids: readonly string[]): Promise<FlexibleGpu[]> {
  // An empty id filter would read every GPU of the account.
  if (ids.length === 0) return [];
  const read = await deps.call(`reading flexible gpus ${ids.join(', ')}`, () =>
    deps.api.readFlexibleGpus({ Filters: { FlexibleGpuIds: [...ids] } }),
  );
  return read.FlexibleGpus;
}

/** The GPUs tagged for this NodeClaim's launch, linked or not. */
export async function gpusOf(deps: GpuClaimDeps, owner: GpuOwner): Promise<FlexibleGpu[]> {
  const tags = await deps.call(`reading flexible gpu tags of nodeclaim ${owner.nodeClaimName}`, () =>
    deps.api.readAllTags({ Filters: { Keys: [TagGpuLaunchToken], Values: [owner.token] } }),
  );
  return gpusByIds(deps, [...new Set(tags.map((t) => t.ResourceId))]);
}

export async function tagForOwner(deps: GpuClaimDeps, gpuIds: readonly string[], owner: GpuOwner): Promise<void> {
  if (gpuIds.length === 0) return;
  await deps.call(`tagging flexible gpus ${gpuIds.join(', ')} for nodeclaim ${owner.nodeClaimName}`, () =>
    deps.api.createTags({ ResourceIds: [...gpuIds], Tags: ownerTags(owner) }),
  );
}

export function hasPendingGpu(vm: Vm): boolean {
  return vm.Tags.some((t) => t.Key === TagGpuPending);
}

export async function markGpuPending(deps: GpuClaimDeps, vmId: string): Promise<void> {
  await deps.call(`marking vm ${vmId} as creating flexible gpus`, () =>
    deps.api.createTags({ ResourceIds: [vmId], Tags: [{ Key: TagGpuPending, Value: 'true' }] }),
  );
}

export async function clearGpuPending(deps: GpuClaimDeps, vmId: string): Promise<void> {
  await deps.call(`clearing the flexible gpu mark of vm ${vmId}`, () =>
    deps.api.deleteTags({ ResourceIds: [vmId], Tags: [{ Key: TagGpuPending }] }),
  );
}

/**
 * Tags for `owner` up to `count` GPUs a process may have created for `vm` and died before tagging: untagged,
 * unlinked, of the model and subregion, deleted with their VM. Returns them.
 */
export async function adoptUntagged(deps: GpuClaimDeps, vm: Vm, modelName: string, count: number, owner: GpuOwner): Promise<FlexibleGpu[]> {
  if (count <= 0 || !hasPendingGpu(vm)) return [];
  const filters = {
    States: ['allocated' as const],
    ModelNames: [modelName],
    SubregionNames: [vm.Placement.SubregionName],
    DeleteOnVmDeletion: true,
  };
  const candidates = (
    await deps.call(`reading unlinked ${modelName} gpus`, () => deps.api.readFlexibleGpus({ Filters: filters }))
  ).FlexibleGpus.filter(isUnlinked);
  if (candidates.length === 0) return [];
  const ids = candidates.map((g) => g.FlexibleGpuId);
  const tagged = await deps.call(`reading tags of flexible gpus ${ids.join(', ')}`, () =>
    deps.api.readAllTags({ Filters: { Keys: [TagGpuLaunchToken], ResourceIds: ids } }),
  );
  const owned = new Set(tagged.map((t) => t.ResourceId));
  const adopted = candidates.filter((g) => !owned.has(g.FlexibleGpuId)).slice(0, count);
  await tagForOwner(
    deps,
    adopted.map((g) => g.FlexibleGpuId),
    owner,
  );
  return adopted;
}

/** Deletes one unlinked GPU; one already gone counts as deleted. */
export async function deleteGpu(deps: GpuClaimDeps, gpuId: string): Promise<void> {
  await deps.call(`deleting flexible gpu ${gpuId}`, async () => {
    try {
      return await deps.api.deleteFlexibleGpu({ FlexibleGpuId: gpuId });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  });
}

/** Deletes the NodeClaim's GPUs no VM holds (linked ones go with their VM). Returns their ids. */
export async function releaseUnlinked(deps: GpuClaimDeps, owner: GpuOwner): Promise<string[]> {
  const unlinked = (await gpusOf(deps, owner)).filter(isUnlinked).map((g) => g.FlexibleGpuId);
  for (const id of unlinked) await deleteGpu(deps, id);
  return unlinked;
}

/** Every GPU tagged for a NodeClaim of this cluster; throws when any read fails (never a partial answer). */
export async function clusterGpus(deps: GpuClaimDeps, clusterName: string): Promise<ClaimedGpu[]> {
  const claimTags = await deps.call('reading flexible gpu claim tags', () =>
    deps.api.readAllTags({ Filters: { Keys: [TagGpuNodeClaim] } }),
  );
  if (claimTags.length === 0) return [];
  const claimOf = new Map(claimTags.map((t) => [t.ResourceId, t.Value]));
  const ids = [...claimOf.keys()];
  const clusterTags = await deps.call(`reading the cluster tags of flexible gpus ${ids.join(', ')}`, () =>
    deps.api.readAllTags({ Filters: { Keys: [TagManagedBy], Values: [clusterName], ResourceIds: ids } }),
  );
  const ours = new Set(clusterTags.map((t) => t.ResourceId));
  const gpus = await gpusByIds(
    deps,
    ids.filter((id) => ours.has(id)),
  );
  return gpus.map((gpu) => ({ gpu, nodeClaimName: claimOf.get(gpu.FlexibleGpuId) as string }));
}
