/**
 * The Scaleway Instances CloudProvider: servers that join self-managed clusters (kubeadm, k3s, Talos)
 * through cloud-init. It orchestrates; the Instance API work is in `instances.ts` / `launch.ts`, the
 * product mapping in `instancetypes.ts`, the NodeClass meaning in `nodeclass.ts`.
 */
import {
  ScalewayNodeClassGroup,
  ScalewayNodeClassKind,
  ScalewayNodeClassVersion,
  type ScalewayNodeClass,
} from '../../apis/v1alpha1/scaleway-nodeclass.js';
import type { InstanceType } from '../../domain/instancetypes/types.js';
import { NotReadyRepairPolicies } from '../../domain/repair/index.js';
import type { Clock } from '../../util/clock.js';
import { NodeClaimNotFoundError, NodeClassNotReadyError, TransientCloudError, isNodeClaimNotFoundError } from '../errors.js';
import type {
  CloudNodeClaim,
  CloudProvider,
  CloudProviderNodeClaim,
  CloudProviderNodePool,
  CloudRegions,
  NodeClassCloudFacts,
  DriftReason,
  NodeClassKind,
  NodeClassResolver,
  RepairPolicy,
} from '../types.js';
import type { UnavailableOfferings } from '../unavailable-offerings.js';
import type { ScalewayAccounts } from './accounts.js';
import type { ScalewayServer } from './api.js';
import { instanceApiZones } from './client.js';
import { toCloudNodeClaim } from './cloud-nodeclaim.js';
import { restrictToZones } from './instancetypes.js';
import { rootVolumeName, type ScalewayInstances } from './instances.js';
import { ListingRecheckMs, listingWaitMs, type CreateAttempts } from './create-window.js';
import { launch, type CreateAttemptLog } from './launch.js';
import { scalewayNodeClassFacts } from './nodeclass-facts.js';
import { driftReason } from './nodeclass.js';
import type { ScalewayProducts } from './products.js';
import { parseProviderID, tryParseProviderID, type ServerLocation } from './provider-id.js';
import { clusterTag, nodeClaimLookupTags } from './tags.js';

export interface ScalewayCloudProviderOptions {
  clusterName: string;
  region: string;
  /** The region's zones: where list() looks. */
  zones: readonly string[];
  accounts: ScalewayAccounts;
  products: ScalewayProducts;
  nodeClasses: NodeClassResolver<ScalewayNodeClass>;
  unavailableOfferings: UnavailableOfferings;
  clock: Clock;
  /** See `create-window.ts`. */
  listingWindowMs: number;
  /** Writes the create attempt's instant on the NodeClaim (annotation `AnnotationCreateAttempted`). */
  recordCreateAttempt: RecordCreateAttempt;
}

/** Persists "a create is being sent at `at`" on the NodeClaim, so a restarted process knows it. */
export type RecordCreateAttempt = (nodeClaim: CloudProviderNodeClaim, at: number) => Promise<void>;

export class ScalewayCloudProvider implements CloudProvider {
  readonly name = 'scaleway';
  private readonly inFlight = new Map<string, Promise<CloudNodeClaim>>(); // NodeClaim uid (or name) -> its launch
  // NodeClaim uid (or name) -> the server created for it: a retry finds it even before listing shows it.
  private readonly created = new Map<string, ServerLocation>();
  // NodeClaim uid (or name) -> what this process knows of its create attempts' outcomes.
  private readonly attempts = new Map<string, Omit<CreateAttempts, 'recordedAt'>>();

  constructor(private readonly options: ScalewayCloudProviderOptions) {}

  /** Concurrent creates of one NodeClaim share one launch, so they cannot make two servers. */
  create(nodeClaim: CloudProviderNodeClaim): Promise<CloudNodeClaim> {
    const key = nodeClaim.metadata?.uid ?? nodeClaim.metadata?.name ?? '';
    const running = this.inFlight.get(key);
    if (running) return running;
    const launching = this.launch(nodeClaim, key).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, launching);
    return launching;
  }

  async delete(nodeClaim: CloudProviderNodeClaim): Promise<void> {
    const name = nodeClaim.metadata?.name ?? '';
    const identity = { name, ...(nodeClaim.metadata?.uid ? { uid: nodeClaim.metadata.uid } : {}) };
    const found = await this.findForDelete(nodeClaim);
    if (!found) {
      this.ensureNoUnlistedServer(nodeClaim);
      this.created.delete(nodeClaim.metadata?.uid ?? name);
      // Gone: the root Block volume terminate only detached is deleted before saying so.
      for (const account of await this.options.accounts.known())
        await account.deleteDetachedVolumes(this.options.zones, rootVolumeName(identity));
      throw new NodeClaimNotFoundError(`deleting nodeclaim ${name}: its server is gone`);
    }
    await found.account.terminateStep(found.server);
  }

  async get(providerID: string): Promise<CloudNodeClaim> {
    const location = tryParseProviderID(providerID);
    if (!location) throw new NodeClaimNotFoundError(`getting ${providerID}: not a Scaleway instance providerID`);
    const found = await this.locate(location);
    if (!found) throw new NodeClaimNotFoundError(`getting ${providerID}: no such server`);
    return this.toCloudNodeClaim(found.server);
  }

  async list(): Promise<CloudNodeClaim[]> {
    // Every account an existing NodeClass names, not only those used since the start (a restart): a NodeClass
    // whose credentials cannot be read fails the list rather than leaving its servers out of it.
    const tags = [clusterTag(this.options.clusterName)];
    const perAccount = await Promise.all((await this.options.accounts.known()).map((account) => account.list(this.options.zones, tags)));
    const servers = new Map(perAccount.flat().map((s) => [s.id, s]));
    return Promise.all([...servers.values()].map((s) => this.toCloudNodeClaim(s)));
  }

  async getInstanceTypes(nodePool: CloudProviderNodePool): Promise<InstanceType[]> {
    const nodeClass = await this.nodeClass(nodePool.spec.template.spec.nodeClassRef.name);
    return this.instanceTypesFor(nodeClass);
  }

  async isDrifted(nodeClaim: CloudProviderNodeClaim): Promise<DriftReason | undefined> {
    const providerID = nodeClaim.status?.providerID;
    if (!providerID) return undefined;
    const found = await this.locate(parseProviderID(providerID));
    if (!found) return undefined;
    const nodeClass = await this.nodeClass(nodeClaim.spec.nodeClassRef.name);
    return driftReason(found.server, nodeClass.spec);
  }

  async nodeClassFacts(kind: string, name: string): Promise<NodeClassCloudFacts | undefined> {
    if (kind !== ScalewayNodeClassKind) return undefined;
    const nodeClass = await this.nodeClass(name);
    return scalewayNodeClassFacts(nodeClass, await this.options.accounts.forNodeClass(nodeClass));
  }

  /** The Instance API's zones by region (`fr-par-1` is in `fr-par`). */
  listRegions(): Promise<CloudRegions[]> {
    const byRegion = new Map<string, string[]>();
    for (const zone of instanceApiZones()) {
      const region = zone.replace(/-[0-9]+$/, '');
      byRegion.set(region, [...(byRegion.get(region) ?? []), zone]);
    }
    if (byRegion.size === 0) return Promise.resolve([]);
    return Promise.resolve([{ cloud: this.name, regions: [...byRegion].map(([name, zones]) => ({ name, zones })) }]);
  }

  getSupportedNodeClasses(): NodeClassKind[] {
    return [{ group: ScalewayNodeClassGroup, version: ScalewayNodeClassVersion, kind: ScalewayNodeClassKind }];
  }

  /** With node repair on (the NodeRepair gate), a node NotReady for 30 minutes is replaced. */
  repairPolicies(): RepairPolicy[] {
    return [...NotReadyRepairPolicies];
  }

  private async launch(nodeClaim: CloudProviderNodeClaim, key: string): Promise<CloudNodeClaim> {
    const nodeClass = await this.nodeClass(nodeClaim.spec.nodeClassRef.name);
    const remembered = this.created.get(key);
    const ctx = {
      ...(remembered ? { remembered } : {}),
      remember: (server: ServerLocation | undefined) => {
        if (server) this.created.set(key, { zone: server.zone, id: server.id });
        else this.created.delete(key);
      },
      attempts: this.attemptLog(key),
      recordAttempt: (at: number) => this.options.recordCreateAttempt(nodeClaim, at),
      now: () => this.options.clock.now(),
      listingWindowMs: this.options.listingWindowMs,
      clusterName: this.options.clusterName,
      nodeClass,
      instances: await this.options.accounts.forNodeClass(nodeClass),
      instanceTypes: await this.instanceTypesFor(nodeClass),
      nodeClasses: this.options.nodeClasses,
      unavailableOfferings: this.options.unavailableOfferings,
    };
    const { server, instanceType } = await launch(ctx, nodeClaim);
    return toCloudNodeClaim(server, instanceType, this.options.region);
  }

  /**
   * "Gone" is not said of a NodeClaim without providerID while a create of unknown outcome is so recent that the
   * listing may not show its server yet: the finalizer would go and the server run on until garbage collection.
   */
  private ensureNoUnlistedServer(nodeClaim: CloudProviderNodeClaim): void {
    if (nodeClaim.status?.providerID) return;
    const key = nodeClaim.metadata?.uid ?? nodeClaim.metadata?.name ?? '';
    const waitMs = listingWaitMs(
      nodeClaim.metadata?.annotations,
      this.attemptLog(key).get(),
      this.options.clock.now(),
      this.options.listingWindowMs,
    );
    if (waitMs === 0) return;
    throw new TransientCloudError(
      `deleting nodeclaim ${nodeClaim.metadata?.name ?? ''}: its last create may have made a server the listing does not show yet; looking again before calling it gone`,
      { retryAfterMs: Math.min(waitMs, ListingRecheckMs) },
    );
  }

  private attemptLog(key: string): CreateAttemptLog {
    const entry = (): Omit<CreateAttempts, 'recordedAt'> => this.attempts.get(key) ?? {};
    return {
      get: entry,
      settled: (startedAt) => this.attempts.set(key, { ...entry(), settledAt: startedAt }),
      uncertain: (at) => this.attempts.set(key, { ...entry(), uncertainSince: at }),
    };
  }

  private async nodeClass(name: string): Promise<ScalewayNodeClass> {
    const nodeClass = await this.options.nodeClasses.getNodeClass(name);
    const outside = nodeClass.spec.zones.filter((z) => !this.options.zones.includes(z));
    if (outside.length > 0) {
      throw new NodeClassNotReadyError(
        `resolving ScalewayNodeClass "${name}": zones ${outside.join(', ')} are not in region ${this.options.region}; accepted: ${this.options.zones.join(', ')}`,
      );
    }
    return nodeClass;
  }

  private async instanceTypesFor(nodeClass: ScalewayNodeClass): Promise<InstanceType[]> {
    const all = await this.options.products.instanceTypes();
    return this.options.unavailableOfferings.applyTo(restrictToZones(all, nodeClass.spec.zones));
  }

  private async toCloudNodeClaim(server: ScalewayServer): Promise<CloudNodeClaim> {
    const types = await this.options.products.instanceTypes();
    return toCloudNodeClaim(
      server,
      types.find((t) => t.name === server.commercialType),
      this.options.region,
    );
  }

  /** The server in whichever account has it; undefined when every account says it does not exist. */
  private async locate(location: ServerLocation): Promise<{ server: ScalewayServer; account: ScalewayInstances } | undefined> {
    for (const account of await this.options.accounts.known()) {
      try {
        return { server: await account.get(location.zone, location.id), account };
      } catch (error) {
        if (!isNodeClaimNotFoundError(error)) throw error;
      }
    }
    return undefined;
  }

  /** By providerID, or — for a NodeClaim whose launch never returned one — by its tags, so nothing leaks. */
  private async findForDelete(
    nodeClaim: CloudProviderNodeClaim,
  ): Promise<{ server: ScalewayServer; account: ScalewayInstances } | undefined> {
    const providerID = nodeClaim.status?.providerID;
    if (providerID) return this.locate(parseProviderID(providerID));
    const identity = { name: nodeClaim.metadata?.name ?? '', ...(nodeClaim.metadata?.uid ? { uid: nodeClaim.metadata.uid } : {}) };
    const tags = nodeClaimLookupTags(this.options.clusterName, identity);
    for (const account of await this.options.accounts.known()) {
      const [server] = await account.list(this.options.zones, tags);
      if (server) return { server, account };
    }
    return undefined;
  }
}
