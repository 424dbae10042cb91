/**
 * The Outscale CloudProvider: plain VMs that join a self-managed cluster through user data, found again by
 * tags (`karpenter.sh/managed-by` for the GC, `OscK8sClusterID/<id>` and `OscK8sNodeName` for the CCM),
 * providerID `aws:///<subregion>/<vmId>`. `list` reads every page or throws: a failed or partial List read as
 * "no VMs" would have garbage collection delete every node.
 */
import {
  OutscaleNodeClassGroup,
  OutscaleNodeClassKind,
  OutscaleNodeClassVersion,
  type OutscaleNodeClass,
} from '../../apis/v1alpha1/outscale-nodeclass.js';
import type { CatalogFile, CatalogFlavor } from '../../catalog/types.js';
import { buildInstanceTypes } from '../../domain/instancetypes/build.js';
import type { InstanceType } from '../../domain/instancetypes/types.js';
import { NotReadyRepairPolicies } from '../../domain/repair/index.js';
import type { BackoffPolicy, RandomSource } from '../../util/backoff.js';
import type { Clock } from '../../util/clock.js';
import {
  IncompleteResponseError,
  isNodeClaimNotFoundError,
  NodeClaimNotFoundError,
  NodeClassNotReadyError,
  PermanentCloudError,
} from '../errors.js';
import { DefaultCloudRetryPolicy } from '../retry.js';
import type {
  ClaimResource,
  CloudNodeClaim,
  CloudProvider,
  CloudProviderNodeClaim,
  CloudProviderNodePool,
  CloudRegions,
  NodeClassCloudFacts,
  DriftReason,
  NodeClassKind,
  NodeClassReference,
  NodeClassResolver,
  RepairPolicy,
} from '../types.js';
import { UnavailableOfferings } from '../unavailable-offerings.js';
import type { OutscaleApi } from './api.js';
import type { Vm } from './api-types.js';
import { outscaleCaller, type OutscaleCaller } from './calls.js';
import { isNotFound } from './errors.js';
import { clusterGpus, deleteGpu, isUnlinked } from './gpu-claims.js';
import { ListedVmStates, TagManagedBy, isGone, toCloudNodeClaim } from './instances.js';
import { buildOutscaleInstanceTypes } from './instancetypes.js';
import { outscaleNodeClassFacts } from './nodeclass-facts.js';
import { OutscaleAccounts, type OutscaleAccount, type OutscaleApiFactory } from './accounts.js';
import { clientTokenOf, findByClientToken, gpuOwnerOf, launch, releaseGpus, type LaunchContext } from './launch.js';
import { driftReasonOf, resolveUserData, subregionsOf } from './nodeclass.js';
import { PriceBook } from './prices.js';
import { InvalidProviderIdError, parseProviderId } from './provider-id.js';

/** The `kind` of the claim resources this provider reports. */
export const FlexibleGpuKind = 'flexible-gpu';

export const OutscaleNodeClassKindRef: NodeClassKind = {
  group: OutscaleNodeClassGroup,
  version: OutscaleNodeClassVersion,
  kind: OutscaleNodeClassKind,
};

export interface OutscaleCloudProviderOptions {
  /** The operator-wide account's client. */
  api: OutscaleApi;
  /** Clients for NodeClasses with their own `credentialsSecretRef` (same endpoint and region). */
  apiFactory?: OutscaleApiFactory;
  /** The value of `karpenter.sh/managed-by` on every VM launched; `list` returns exactly the VMs carrying it. */
  clusterName: string;
  nodeClasses: NodeClassResolver<OutscaleNodeClass>;
  /** The bundled Outscale catalog (instance types; prices when ReadPublicCatalog cannot be read). */
  catalog: CatalogFile;
  clock: Clock;
  random: RandomSource;
  retryPolicy?: BackoffPolicy;
  unavailableOfferings?: UnavailableOfferings;
  priceRefreshMs?: number;
  /** ReadVms page size (1–1000); default 1000. */
  pageSize?: number;
  gpuPollIntervalMs?: number;
  gpuStopTimeoutMs?: number;
  repairPolicies?: RepairPolicy[];
}

export class OutscaleCloudProvider implements CloudProvider {
  readonly name = 'outscale';
  readonly unavailableOfferings: UnavailableOfferings;
  private readonly api: OutscaleApi;
  private readonly call: OutscaleCaller;
  private readonly prices: PriceBook;
  private readonly accounts: OutscaleAccounts;
  private readonly inflight = new Map<string, Promise<CloudNodeClaim>>();

  constructor(private readonly options: OutscaleCloudProviderOptions) {
    this.api = options.api;
    this.call = outscaleCaller({ clock: options.clock, random: options.random, policy: options.retryPolicy ?? DefaultCloudRetryPolicy });
    this.unavailableOfferings = options.unavailableOfferings ?? new UnavailableOfferings({ clock: options.clock });
    // The public catalog is the same for every account of the region: one price book.
    this.prices = new PriceBook(options.api, options.clock, options.priceRefreshMs);
    const flavors = new Map<string, CatalogFlavor>(options.catalog.flavors.map((f) => [f.name, f]));
    const instanceTypeIndex = indexInstanceTypes(options.catalog, options.api.region);
    const contextFor = (api: OutscaleApi): LaunchContext => ({
      api,
      call: this.call,
      gpu: {
        api,
        call: this.call,
        clock: options.clock,
        pollIntervalMs: options.gpuPollIntervalMs ?? 2_000,
        stopTimeoutMs: options.gpuStopTimeoutMs ?? 5 * 60_000,
      },
      clusterName: options.clusterName,
      unavailableOfferings: this.unavailableOfferings,
      flavors,
      instanceTypeIndex,
    });
    this.accounts = new OutscaleAccounts({
      operator: contextFor(options.api),
      contextFor,
      nodeClasses: options.nodeClasses,
      ...(options.apiFactory ? { apiFactory: options.apiFactory } : {}),
    });
  }

  /** One launch per NodeClaim at a time in this process; across processes the ClientToken dedupes. */
  create(nodeClaim: CloudProviderNodeClaim): Promise<CloudNodeClaim> {
    const token = clientTokenOf(nodeClaim);
    const running = this.inflight.get(token);
    if (running) return running;
    const launching = this.createOnce(nodeClaim).finally(() => this.inflight.delete(token));
    this.inflight.set(token, launching);
    return launching;
  }

  /** Also gives back the NodeClaim's flexible GPUs no VM holds (a launch stopped between creating and linking them). */
  async delete(nodeClaim: CloudProviderNodeClaim): Promise<void> {
    const name = nodeClaim.metadata?.name ?? '';
    const accounts = await this.accountsOf(nodeClaim);
    const owner = gpuOwnerOf(this.options, nodeClaim);
    const providerID = nodeClaim.status?.providerID;
    if (!providerID) {
      for (const account of accounts) {
        const vm = await findByClientToken(account.launch, clientTokenOf(nodeClaim));
        if (!vm?.VmId) continue;
        await releaseGpus(account.launch, owner, vm);
        return this.deleteVm(account, vm.VmId, name);
      }
      for (const account of accounts) await releaseGpus(account.launch, owner);
      throw new NodeClaimNotFoundError(`deleting nodeclaim ${name}: no vm was launched for it`);
    }
    const vmId = this.vmIdOf(providerID, `deleting nodeclaim ${name}`);
    for (const account of accounts) {
      const vm = await this.readVm(account, vmId);
      if (!vm) continue;
      await releaseGpus(account.launch, owner, vm);
      if (isGone(vm)) throw new NodeClaimNotFoundError(`deleting nodeclaim ${name}: vm ${vmId} is terminated`);
      if (vm.State === 'shutting-down') return;
      return this.deleteVm(account, vmId, name);
    }
    // A VM ReadVms does not show yet (eventual consistency) is still deleted: only DeleteVms can say it is
    // gone, and only in its own account — so every account is asked before calling it gone.
    for (const account of accounts) {
      try {
        await releaseGpus(account.launch, owner);
        return await this.deleteVm(account, vmId, name);
      } catch (err) {
        if (!isNodeClaimNotFoundError(err)) throw err;
      }
    }
    throw new NodeClaimNotFoundError(`deleting nodeclaim ${name}: vm ${vmId} does not exist in any of ${accounts.length} accounts`);
  }

  async get(providerID: string): Promise<CloudNodeClaim> {
    const vmId = this.vmIdOf(providerID, 'getting instance');
    for (const account of await this.accounts.all()) {
      const vm = await this.readVm(account, vmId);
      if (vm && !isGone(vm)) return toCloudNodeClaim(vm, account.launch.instanceTypeIndex);
    }
    throw new NodeClaimNotFoundError(`getting instance ${providerID}: no such vm`);
  }

  /** Every VM of this cluster in every account, every page read, or an error — never an empty or partial list. */
  async list(): Promise<CloudNodeClaim[]> {
    const byId = new Map<string, CloudNodeClaim>();
    for (const account of await this.accounts.all()) {
      const vms = await this.call(`listing vms of cluster ${this.options.clusterName} (account ${account.key})`, () =>
        account.launch.api.readAllVms({
          Filters: { Tags: [`${TagManagedBy}=${this.options.clusterName}`], VmStateNames: ListedVmStates },
          ResultsPerPage: this.options.pageSize ?? 1000,
        }),
      );
      for (const vm of vms) if (vm.VmId) byId.set(vm.VmId, toCloudNodeClaim(vm, account.launch.instanceTypeIndex));
    }
    return [...byId.values()];
  }

  async getInstanceTypes(nodePool: CloudProviderNodePool): Promise<InstanceType[]> {
    return this.instanceTypesFor(await this.nodeClassOf(nodePool.spec.template.spec.nodeClassRef));
  }

  async isDrifted(nodeClaim: CloudProviderNodeClaim): Promise<DriftReason | undefined> {
    const providerID = nodeClaim.status?.providerID;
    if (!providerID) return undefined;
    const nodeClass = await this.nodeClassOf(nodeClaim.spec.nodeClassRef);
    const vm = await this.readVm(await this.accounts.forNodeClass(nodeClass), this.vmIdOf(providerID, 'checking drift'));
    if (!vm || isGone(vm)) return undefined;
    return driftReasonOf(vm, nodeClass, await resolveUserData(nodeClass, this.options.nodeClasses));
  }

  async nodeClassFacts(kind: string, name: string): Promise<NodeClassCloudFacts | undefined> {
    if (kind !== 'OutscaleNodeClass') return undefined;
    const nodeClass = await this.options.nodeClasses.getNodeClass(name);
    const account = await this.accounts.forNodeClass(nodeClass);
    return outscaleNodeClassFacts(nodeClass, account.launch);
  }

  /**
   * The cloud's regions (ReadRegions), the subregions of the operator's own region (ReadSubregions) with
   * them; other regions' subregions are not readable from this endpoint.
   */
  async listRegions(): Promise<CloudRegions[]> {
    try {
      const [regions, subregions] = await Promise.all([
        this.call('listing regions', () => this.api.readRegions()),
        this.call(`listing subregions of ${this.api.region}`, () =>
          this.api.readSubregions({ Filters: { RegionNames: [this.api.region] } }),
        ),
      ]);
      if (regions.Regions.length === 0) throw new IncompleteResponseError('listing regions: the answer lists no region');
      const own = subregions.Subregions.filter((s) => s.RegionName === this.api.region).map((s) => s.SubregionName);
      const list = regions.Regions.map((r) => ({
        name: r.RegionName,
        ...(r.RegionName === this.api.region && own.length > 0 ? { zones: own } : {}),
      }));
      return [{ cloud: this.name, regions: list }];
    } catch (error) {
      return [{ cloud: this.name, error: error as Error }];
    }
  }

  getSupportedNodeClasses(): NodeClassKind[] {
    return [{ ...OutscaleNodeClassKindRef }];
  }

  /** With node repair on (the NodeRepair gate), a node NotReady for 30 minutes is replaced, unless the options say otherwise. */
  repairPolicies(): RepairPolicy[] {
    return [...(this.options.repairPolicies ?? NotReadyRepairPolicies)];
  }

  /** The flexible GPUs tagged for this cluster's NodeClaims, in every account; throws when any read fails. */
  async listClaimResources(): Promise<ClaimResource[]> {
    const byId = new Map<string, ClaimResource>();
    for (const account of await this.accounts.all()) {
      for (const { gpu, nodeClaimName } of await clusterGpus(account.launch, this.options.clusterName)) {
        byId.set(gpu.FlexibleGpuId, {
          id: gpu.FlexibleGpuId,
          kind: FlexibleGpuKind,
          provider: this.name,
          nodeClaimName,
          attached: !isUnlinked(gpu),
        });
      }
    }
    return [...byId.values()];
  }

  /** Deletes the GPU in whichever account holds it. */
  async deleteClaimResource(resource: ClaimResource): Promise<void> {
    for (const account of await this.accounts.all()) {
      const [gpu] = (
        await this.call(`reading flexible gpu ${resource.id}`, () =>
          account.launch.api.readFlexibleGpus({ Filters: { FlexibleGpuIds: [resource.id] } }),
        )
      ).FlexibleGpus;
      if (gpu) return deleteGpu(account.launch, resource.id);
    }
  }

  private async createOnce(nodeClaim: CloudProviderNodeClaim): Promise<CloudNodeClaim> {
    const nodeClass = await this.nodeClassOf(nodeClaim.spec.nodeClassRef);
    const [account, instanceTypes, userData] = await Promise.all([
      this.accounts.forNodeClass(nodeClass),
      this.instanceTypesFor(nodeClass),
      resolveUserData(nodeClass, this.options.nodeClasses),
    ]);
    return launch(account.launch, { nodeClaim, nodeClass, instanceTypes, userData });
  }

  private async instanceTypesFor(nodeClass: OutscaleNodeClass): Promise<InstanceType[]> {
    return buildOutscaleInstanceTypes({
      catalog: this.options.catalog,
      region: this.api.region,
      subregions: subregionsOf(nodeClass),
      unitPrices: await this.prices.unitPrices(),
      unavailable: (instanceType, zone) => this.unavailableOfferings.isUnavailable({ instanceType, zone, capacityType: 'on-demand' }),
    });
  }

  private async nodeClassOf(ref: NodeClassReference): Promise<OutscaleNodeClass> {
    if (ref.kind !== OutscaleNodeClassKind || ref.group !== OutscaleNodeClassGroup) {
      throw new NodeClassNotReadyError(
        `resolving nodeClassRef ${ref.group}/${ref.kind} ${ref.name}: the outscale provider serves ${OutscaleNodeClassGroup}/${OutscaleNodeClassKind} only`,
      );
    }
    const nodeClass = await this.options.nodeClasses.getNodeClass(ref.name);
    if (nodeClass.spec.region !== this.api.region) {
      throw new NodeClassNotReadyError(
        `resolving OutscaleNodeClass ${ref.name}: spec.region is ${nodeClass.spec.region}; accepted: ${this.api.region}, the region of the configured Outscale account`,
      );
    }
    return nodeClass;
  }

  private vmIdOf(providerID: string, operation: string): string {
    try {
      return parseProviderId(providerID).vmId;
    } catch (err) {
      if (err instanceof InvalidProviderIdError) throw new PermanentCloudError(`${operation}: ${err.message}`, { cause: err });
      throw err;
    }
  }

  /** The NodeClaim's NodeClass's account first; every known account when the NodeClass is gone. */
  private async accountsOf(nodeClaim: CloudProviderNodeClaim): Promise<OutscaleAccount[]> {
    try {
      const own = await this.accounts.forNodeClass(await this.nodeClassOf(nodeClaim.spec.nodeClassRef));
      return [own, ...(await this.accounts.all()).filter((a) => a.key !== own.key)];
    } catch (err) {
      if (err instanceof NodeClassNotReadyError) return this.accounts.all();
      throw err;
    }
  }

  private async deleteVm(account: OutscaleAccount, vmId: string, nodeClaimName: string): Promise<void> {
    const deleted = await this.call(`deleting vm ${vmId} of nodeclaim ${nodeClaimName}`, async () => {
      try {
        return await account.launch.api.deleteVms({ VmIds: [vmId] });
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    });
    if (!deleted) throw new NodeClaimNotFoundError(`deleting nodeclaim ${nodeClaimName}: vm ${vmId} does not exist`);
  }

  private async readVm(account: OutscaleAccount, vmId: string): Promise<Vm | undefined> {
    const vms = await this.call(`reading vm ${vmId}`, async () => {
      try {
        return await account.launch.api.readAllVms({ Filters: { VmIds: [vmId] } });
      } catch (err) {
        if (isNotFound(err)) return [];
        throw err;
      }
    });
    return vms[0];
  }
}

/** Instance types by name over every subregion of the region (empty when the catalog lacks the region). */
function indexInstanceTypes(catalog: CatalogFile, region: string): Map<string, InstanceType> {
  if (!catalog.regions.some((r) => r.name === region)) return new Map();
  return new Map(buildInstanceTypes(catalog, region).map((t) => [t.name, t]));
}
