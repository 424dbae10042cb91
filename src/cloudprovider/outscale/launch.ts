/**
 * Launching a NodeClaim on Outscale, idempotently. The ClientToken is the NodeClaim's UID, so a retried
 * CreateVms returns the first VM instead of making a second one. CreateVms cannot tag, so tagging is a
 * second, separate step: a VM whose tagging failed is found again by `Filters.ClientTokens` on the next
 * attempt and finished (tags, then flexible GPUs), and `delete` of a NodeClaim without providerID finds and
 * removes it the same way — a half-finished create is never leaked.
 */
import type { OutscaleNodeClass } from '../../apis/v1alpha1/outscale-nodeclass.js';
import type { CatalogFlavor } from '../../catalog/types.js';
import { compatibleOfferings, type InstanceType, type LaunchCandidate } from '../../domain/instancetypes/index.js';
import { CreateError, InsufficientCapacityError, PermanentCloudError, findInChain, type OfferingKey } from '../errors.js';
import type { UnavailableOfferings } from '../unavailable-offerings.js';
import type { CloudNodeClaim, CloudProviderNodeClaim } from '../types.js';
import type { OutscaleApi } from './api.js';
import type { Vm, VmState } from './api-types.js';
import type { OutscaleCaller } from './calls.js';
import { attachFlexibleGpus, type GpuAttachDeps } from './gpu.js';
import { adoptUntagged, releaseUnlinked, type GpuOwner } from './gpu-claims.js';
import { TagInstanceType, launchTags, missingTags, tagValue, toCloudNodeClaim } from './instances.js';
import { launchShapeOf } from './instancetypes.js';
import { launchFields } from './nodeclass.js';

/** States of a VM a create may still finish (not terminating, not gone). */
const FinishableStates: VmState[] = ['pending', 'running', 'stopping', 'stopped', 'quarantine'];

export interface LaunchContext {
  api: OutscaleApi;
  call: OutscaleCaller;
  gpu: GpuAttachDeps;
  clusterName: string;
  unavailableOfferings: UnavailableOfferings;
  flavors: ReadonlyMap<string, CatalogFlavor>;
  /** Instance types by name over every subregion: the shape of what list/get report. */
  instanceTypeIndex: ReadonlyMap<string, InstanceType>;
}

export interface LaunchRequest {
  nodeClaim: CloudProviderNodeClaim;
  nodeClass: OutscaleNodeClass;
  instanceTypes: readonly InstanceType[];
  userData: string | undefined;
}

/** The idempotency key of a NodeClaim's launch (its UID; its name when it has none, as in some tests). */
export function clientTokenOf(nodeClaim: CloudProviderNodeClaim): string {
  return nodeClaim.metadata?.uid ?? nodeClaim.metadata?.name ?? '';
}

function nameOf(nodeClaim: CloudProviderNodeClaim): string {
  return nodeClaim.metadata?.name ?? '';
}

/** The live VM launched earlier with this ClientToken, if any. */
export async function findByClientToken(ctx: LaunchContext, token: string): Promise<Vm | undefined> {
  if (token === '') return undefined;
  const vms = await ctx.call(`reading vms of client token ${token}`, () =>
    ctx.api.readAllVms({ Filters: { ClientTokens: [token], VmStateNames: FinishableStates } }),
  );
  return vms[0];
}

function offeringKey(candidate: LaunchCandidate): OfferingKey {
  return { instanceType: candidate.instanceType.name, zone: candidate.offering.zone, capacityType: candidate.offering.capacityType };
}

function pickCandidate(request: LaunchRequest): LaunchCandidate {
  const compatible = compatibleOfferings(request.instanceTypes, request.nodeClaim.spec);
  const best = compatible.find((c) => c.offering.available);
  if (best) return best;
  const name = nameOf(request.nodeClaim);
  if (compatible.length > 0) {
    throw new InsufficientCapacityError(`launching nodeclaim ${name}: all ${compatible.length} compatible offerings are unavailable`, []);
  }
  throw new CreateError(
    `launching nodeclaim ${name}: no instance type of OutscaleNodeClass ${request.nodeClass.metadata?.name ?? ''} satisfies its requirements and requests`,
    {
      reason: 'InstanceTypeNotFound',
      message: 'no Outscale instance type satisfies the NodeClaim requirements and resource requests in the NodeClass subregions',
    },
  );
}

/**
 * Which instance type a VM found by ClientToken was launched as, when its tags do not say (tagging failed):
 * the type the NodeClaim would choose among those launched as this VmType in this subregion.
 */
function recoverCandidate(ctx: LaunchContext, vm: Vm, request: LaunchRequest): LaunchCandidate {
  const zone = vm.Placement.SubregionName;
  const tagged = request.instanceTypes.find((t) => t.name === tagValue(vm, TagInstanceType));
  const taggedOffering = tagged?.offerings.find((o) => o.zone === zone);
  if (tagged && taggedOffering) return { instanceType: tagged, offering: taggedOffering };
  const sameShape = request.instanceTypes
    .filter((t) => {
      const flavor = ctx.flavors.get(t.name);
      return flavor !== undefined && launchShapeOf(flavor).vmType === vm.VmType;
    })
    .map((t) => ({ ...t, offerings: t.offerings.filter((o) => o.zone === zone).map((o) => ({ ...o, available: true })) }));
  const chosen = compatibleOfferings(sameShape, request.nodeClaim.spec)[0];
  if (chosen) return chosen;
  const fallback = sameShape.find((t) => t.offerings.length > 0);
  const offering = fallback?.offerings[0];
  if (!fallback || !offering) {
    throw new PermanentCloudError(
      `finishing vm ${vm.VmId} of nodeclaim ${nameOf(request.nodeClaim)}: vm type ${vm.VmType} in ${zone} matches no instance type of its NodeClass`,
    );
  }
  return { instanceType: fallback, offering };
}

async function createVm(ctx: LaunchContext, request: LaunchRequest, candidate: LaunchCandidate, token: string): Promise<Vm> {
  const flavor = ctx.flavors.get(candidate.instanceType.name);
  const shape = flavor ? launchShapeOf(flavor) : { vmType: candidate.instanceType.name };
  const offering = offeringKey(candidate);
  const body = {
    ...launchFields(request.nodeClass, candidate.offering.zone, request.userData),
    VmType: shape.vmType,
    ClientToken: token,
    // A flexible GPU links only to a stopped VM: GPU VMs boot after the link.
    BootOnCreation: shape.flexibleGpu === undefined,
  };
  const operation = `creating vm ${shape.vmType} in ${offering.zone} for nodeclaim ${nameOf(request.nodeClaim)}`;
  let response;
  try {
    response = await ctx.call(operation, () => ctx.api.createVms(body), offering);
  } catch (err) {
    if (ctx.unavailableOfferings.markFromError(err)) throw err;
    if (err instanceof PermanentCloudError)
      throw new CreateError(err.message, { reason: 'LaunchFailed', message: err.message }, { cause: err });
    throw err;
  }
  const vm = response.Vms[0];
  if (!vm) throw new PermanentCloudError(`${operation}: the api answered no vm`);
  if (vm.State === 'shutting-down' || vm.State === 'terminated') {
    throw new CreateError(`${operation}: client token ${token} belongs to vm ${vm.VmId}, already ${vm.State}`, {
      reason: 'ClientTokenReused',
      message: `the VM launched for this NodeClaim (${vm.VmId}) was already terminated; a new NodeClaim is needed`,
    });
  }
  return vm;
}

async function finishLaunch(ctx: LaunchContext, vm: Vm, request: LaunchRequest, candidate: LaunchCandidate): Promise<CloudNodeClaim> {
  const wanted = launchTags(
    {
      clusterName: ctx.clusterName,
      clusterId: request.nodeClass.spec.clusterId,
      nodeClaim: request.nodeClaim,
      instanceType: candidate.instanceType.name,
      nodeClassTags: request.nodeClass.spec.tags,
    },
    vm,
  );
  const missing = missingTags(vm, wanted);
  if (missing.length > 0) {
    await ctx.call(`tagging vm ${vm.VmId} of nodeclaim ${nameOf(request.nodeClaim)}`, () =>
      ctx.api.createTags({ ResourceIds: [vm.VmId], Tags: missing }),
    );
  }
  let tagged: Vm = { ...vm, Tags: [...vm.Tags.filter((t) => !missing.some((m) => m.Key === t.Key)), ...missing] };
  const flavor = ctx.flavors.get(candidate.instanceType.name);
  const shape = flavor ? launchShapeOf(flavor) : { vmType: vm.VmType };
  if (shape.flexibleGpu) tagged = await attachGpusOrRelease(ctx, tagged, shape, offeringKey(candidate), gpuOwnerOf(ctx, request.nodeClaim));
  return toCloudNodeClaim(tagged, ctx.instanceTypeIndex);
}

/** Whose flexible GPUs these are: the tags that find them again after a restart. */
export function gpuOwnerOf(ctx: Pick<LaunchContext, 'clusterName'>, nodeClaim: CloudProviderNodeClaim): GpuOwner {
  return { clusterName: ctx.clusterName, nodeClaimName: nameOf(nodeClaim), token: clientTokenOf(nodeClaim) };
}

/**
 * Deletes the NodeClaim's GPUs no VM holds; with its `vm`, first adopts the one GPU a process that died
 * between creating and tagging it may have left (GPUs are created and tagged one at a time).
 */
export async function releaseGpus(ctx: LaunchContext, owner: GpuOwner, vm?: Vm): Promise<void> {
  const flavor = vm ? ctx.flavors.get(tagValue(vm, TagInstanceType) ?? '') : undefined;
  const gpu = flavor ? launchShapeOf(flavor).flexibleGpu : undefined;
  if (vm && gpu) await adoptUntagged(ctx.gpu, vm, gpu.modelName, 1, owner);
  await releaseUnlinked(ctx.gpu, owner);
}

/** Out of GPU stock: the offering is marked and the stopped VM and the GPUs made for it given back, so nothing waits on them. */
async function attachGpusOrRelease(
  ctx: LaunchContext,
  vm: Vm,
  shape: ReturnType<typeof launchShapeOf>,
  offering: OfferingKey,
  owner: GpuOwner,
): Promise<Vm> {
  try {
    const attached = await attachFlexibleGpus(ctx.gpu, vm, shape, offering, owner);
    return { ...attached, Tags: attached.Tags.length > 0 ? attached.Tags : vm.Tags };
  } catch (err) {
    if (findInChain(err, InsufficientCapacityError)) {
      ctx.unavailableOfferings.markFromError(err);
      await ctx.api.deleteVms({ VmIds: [vm.VmId] }).catch(() => undefined);
      await releaseUnlinked(ctx.gpu, owner).catch(() => undefined);
    }
    throw err;
  }
}

/** Creates (or finds and finishes) the NodeClaim's VM. */
export async function launch(ctx: LaunchContext, request: LaunchRequest): Promise<CloudNodeClaim> {
  const token = clientTokenOf(request.nodeClaim);
  const existing = await findByClientToken(ctx, token);
  if (existing) return finishLaunch(ctx, existing, request, recoverCandidate(ctx, existing, request));
  const candidate = pickCandidate(request);
  const vm = await createVm(ctx, request, candidate, token);
  return finishLaunch(ctx, vm, request, candidate);
}
