/**
 * The OVHcloud MKS CloudProvider. It orchestrates; the node-pool mapping is in `pool-naming.ts` and
 * `pool-launcher.ts`, the listing in `instances.ts`, the flavor mapping in `instancetypes.ts`, the
 * NodeClass meaning in `nodeclass.ts`.
 */
import { OVHNodeClassGroup, OVHNodeClassKind, OVHNodeClassVersion, type OVHNodeClass } from '../../apis/v1alpha1/ovh-nodeclass.js';
import { compatibleOfferings, type InstanceType } from '../../domain/instancetypes/index.js';
import { NotReadyRepairPolicies } from '../../domain/repair/index.js';
import type { Clock } from '../../util/clock.js';
import {
  CreateError,
  InsufficientCapacityError,
  NodeClaimNotFoundError,
  PermanentCloudError,
  findInChain,
  type OfferingKey,
} from '../errors.js';
import type {
  CloudNodeClaim,
  CloudProvider,
  CloudProviderNodeClaim,
  CloudProviderNodePool,
  CloudRegions,
  NodeClassCloudFacts,
  DetectedCluster,
  DriftReason,
  NodeClassKind,
  NodeClassResolver,
  RepairPolicy,
} from '../types.js';
import type { UnavailableOfferings } from '../unavailable-offerings.js';
import type { OvhAccount, OvhAccounts } from './accounts.js';
import type { OvhCaller } from './calls.js';
import type { OvhCatalogCache } from './catalog-cache.js';
import { readCluster, toCloudNodeClaim, zoneOf, type ManagedNode } from './instances.js';
import { KeyedLock } from './keyed-lock.js';
import { driftReason, poolSettingsFor } from './nodeclass.js';
import { deleteEmptyPools } from './pool-cleanup.js';
import { awaitNode, familyLockKey, launchInPool, nodeOfRecordedClaim, releaseClaim, type PoolLaunchDeps } from './pool-launcher.js';
import { ovhNodeClassFacts } from './nodeclass-facts.js';
import { claimAnnotationKey, claimRecordsOf, familyOfPoolName, isManagedPool } from './pool-naming.js';
import { instanceIdOf } from './provider-id.js';

/** Offerings tried per create before giving up with InsufficientCapacityError. */
const MaxOfferingsPerLaunch = 4;

export interface OvhCloudProviderOptions {
  accounts: OvhAccounts;
  /** Only node pools labelled with this cluster's name are listed, scaled or deleted. */
  clusterName: string;
  catalog: OvhCatalogCache;
  nodeClasses: NodeClassResolver<OVHNodeClass>;
  unavailableOfferings: UnavailableOfferings;
  call: OvhCaller;
  clock: Clock;
  pollIntervalMs: number;
  launchTimeoutMs: number;
  maxAntiAffinityNodes: number;
  emptyPoolGraceMs: number;
  onWarning?: (message: string, fields: Record<string, unknown>) => void;
}

export class OvhCloudProvider implements CloudProvider {
  readonly name = 'ovhcloud';
  private readonly inFlight = new Map<string, Promise<CloudNodeClaim>>();
  private readonly lock = new KeyedLock();

  constructor(private readonly options: OvhCloudProviderOptions) {}

  /** Concurrent creates of one NodeClaim share one launch. */
  create(nodeClaim: CloudProviderNodeClaim): Promise<CloudNodeClaim> {
    const key = nodeClaim.metadata?.uid ?? nodeClaim.metadata?.name ?? '';
    const running = this.inFlight.get(key);
    if (running) return running;
    const launching = this.launch(nodeClaim).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, launching);
    return launching;
  }

  /**
   * Removes exactly the claim's node (PUT nodesToRemove, desiredNodes − 1) and its record. A NodeClaim
   * without providerID (a launch that never returned) is found through its record on the pool; while its
   * node is not visible yet, delete resolves and removes it on a later call. The node is looked for in its
   * NodeClass's cluster first, then in every cluster known: a leaked node (garbage collection has no
   * NodeClass for it) or one whose NodeClass is gone is deleted where it runs. Not found means every known
   * cluster was read and none has it.
   */
  async delete(nodeClaim: CloudProviderNodeClaim): Promise<void> {
    const name = nodeClaim.metadata?.name ?? '';
    const target = { claimKey: claimAnnotationKey(name), instanceId: instanceIdOf(nodeClaim.status?.providerID ?? '') };
    const own = await this.nodeClassAccount(nodeClaim);
    if (own && (await this.deleteIn(own, target))) return;
    for (const account of await this.knownAccounts(`deleting nodeclaim ${name}`)) {
      if (account.key !== own?.key && (await this.deleteIn(account, target))) return;
    }
    throw new NodeClaimNotFoundError(`deleting nodeclaim ${name}: its node is gone`);
  }

  async get(providerID: string): Promise<CloudNodeClaim> {
    const instanceId = instanceIdOf(providerID);
    if (!instanceId) throw new NodeClaimNotFoundError(`getting ${providerID}: not an MKS providerID (openstack:///<instanceId>)`);
    for (const account of await this.knownAccounts(`getting ${providerID}`)) {
      const view = await readCluster(account, this.options.call, this.options.clusterName);
      const found = view.nodes.find((m) => m.node.instanceId === instanceId);
      if (found) return this.toCloudNodeClaim(account, found);
    }
    throw new NodeClaimNotFoundError(`getting ${providerID}: no such node`);
  }

  async list(): Promise<CloudNodeClaim[]> {
    const out: CloudNodeClaim[] = [];
    for (const account of await this.knownAccounts('listing ovhcloud instances', true)) {
      const view = await readCluster(account, this.options.call, this.options.clusterName);
      for (const managed of view.nodes) out.push(await this.toCloudNodeClaim(account, managed));
      await deleteEmptyPools(this.cleanupDeps(account), view.pools).catch((error: unknown) => {
        this.options.onWarning?.('deleting empty node pools failed', { error: String(error) });
      });
    }
    return out;
  }

  async getInstanceTypes(nodePool: CloudProviderNodePool): Promise<InstanceType[]> {
    const nodeClass = await this.options.nodeClasses.getNodeClass(nodePool.spec.template.spec.nodeClassRef.name);
    return this.instanceTypesFor(nodeClass);
  }

  async isDrifted(nodeClaim: CloudProviderNodeClaim): Promise<DriftReason | undefined> {
    const instanceId = instanceIdOf(nodeClaim.status?.providerID ?? '');
    if (!instanceId) return undefined;
    const nodeClass = await this.options.nodeClasses.getNodeClass(nodeClaim.spec.nodeClassRef.name);
    const account = await this.options.accounts.forNodeClass(nodeClass);
    const found = (await readCluster(account, this.options.call, this.options.clusterName)).nodes.find(
      (m) => m.node.instanceId === instanceId,
    );
    return found ? driftReason(found.pool, nodeClass.spec) : undefined;
  }

  async detectedCluster(kind: string, name: string): Promise<DetectedCluster | undefined> {
    if (kind !== OVHNodeClassKind) return undefined;
    return this.options.accounts.detectedCluster(await this.options.nodeClasses.getNodeClass(name));
  }

  async nodeClassFacts(kind: string, name: string): Promise<NodeClassCloudFacts | undefined> {
    if (kind !== OVHNodeClassKind) return undefined;
    return ovhNodeClassFacts(await this.options.nodeClasses.getNodeClass(name), this.options.accounts, this.options.call);
  }

  /**
   * The regions MKS offers, read with the first project that answers: the operator-wide one or an
   * OVHNodeClass's own. With none to read with yet it is reported as not read (admission warns until then).
   */
  async listRegions(): Promise<CloudRegions[]> {
    let failure: Error = new Error(
      'no operator-wide OVH_SERVICE_NAME and no OVHNodeClass with usable credentials to read the MKS regions with yet',
    );
    try {
      for (const project of await this.options.accounts.regionReaders()) {
        try {
          const names = await this.options.call('listing mks regions', () => project.api.listCapabilityRegions(project.serviceName));
          return [{ cloud: this.name, regions: names.map((name) => ({ name })) }];
        } catch (error) {
          failure = error as Error;
        }
      }
    } catch (error) {
      failure = error as Error;
    }
    return [{ cloud: this.name, error: failure }];
  }

  getSupportedNodeClasses(): NodeClassKind[] {
    return [{ group: OVHNodeClassGroup, version: OVHNodeClassVersion, kind: OVHNodeClassKind }];
  }

  /** With node repair on (the NodeRepair gate), a node NotReady for 30 minutes is replaced. */
  repairPolicies(): RepairPolicy[] {
    return [...NotReadyRepairPolicies];
  }

  private async launch(nodeClaim: CloudProviderNodeClaim): Promise<CloudNodeClaim> {
    const nodeClass = await this.options.nodeClasses.getNodeClass(nodeClaim.spec.nodeClassRef.name);
    const account = await this.options.accounts.forNodeClass(nodeClass);
    const claimKey = claimAnnotationKey(nodeClaim.metadata?.name ?? '');
    const deps = this.launchDeps(account);
    const refused: OfferingKey[] = [];
    try {
      const resumed = await this.resume(deps, claimKey, nodeClaim.metadata?.name ?? '');
      if (resumed) return await this.toCloudNodeClaim(account, resumed);
    } catch (error) {
      const ice = findInChain(error, InsufficientCapacityError);
      if (!ice) throw error;
      this.options.unavailableOfferings.markFromError(ice);
      refused.push(...ice.offerings);
    }
    const candidates = compatibleOfferings(await this.instanceTypesFor(nodeClass), nodeClaim.spec);
    if (candidates.length === 0) {
      throw new CreateError(
        `launching nodeclaim ${nodeClaim.metadata?.name ?? ''}: no OVHcloud flavor meets its requirements and requests`,
        {
          reason: 'NoCompatibleInstanceTypes',
          message: 'no MKS flavor of the region matches the NodeClaim requirements and resource requests',
        },
      );
    }
    refused.push(...candidates.filter((c) => !c.offering.available).map((c) => keyOf(c.instanceType.name, c.offering.zone)));
    for (const candidate of candidates.filter((c) => c.offering.available).slice(0, MaxOfferingsPerLaunch)) {
      const offering = keyOf(candidate.instanceType.name, candidate.offering.zone);
      try {
        const settings = poolSettingsFor(nodeClaim, nodeClass, offering.instanceType, offering.zone, this.options.clusterName);
        const { pool, node } = await launchInPool(deps, settings, claimKey, offering);
        return this.toCloudNodeClaim(account, { pool, node, nodeClaimName: nodeClaim.metadata?.name ?? '' });
      } catch (error) {
        const ice = findInChain(error, InsufficientCapacityError);
        if (!ice) throw error;
        this.options.unavailableOfferings.markFromError(ice);
        refused.push(...ice.offerings);
      }
    }
    throw new InsufficientCapacityError(
      `launching nodeclaim ${nodeClaim.metadata?.name ?? ''}: every compatible offering is out of stock (${refused.map((o) => `${o.instanceType}/${o.zone}`).join(', ')})`,
      refused,
    );
  }

  /** A launch recorded on a pool by an earlier attempt (a retry, or before a restart) is awaited, not redone. */
  private async resume(deps: PoolLaunchDeps, claimKey: string, nodeClaimName: string): Promise<ManagedNode | undefined> {
    const pools = await deps.call('listing node pools', () => deps.account.api.listNodePools(deps.account.target));
    const pool = pools.filter((p) => isManagedPool(p, this.options.clusterName)).find((p) => claimRecordsOf(p.template).has(claimKey));
    if (!pool) return undefined;
    const { node, pool: latest } = await awaitNode(deps, pool.id, claimKey, keyOf(pool.flavor, pool.availabilityZones[0] ?? ''));
    return { node, pool: latest, nodeClaimName };
  }

  /**
   * The accounts to read. None known (no operator-wide cluster, no NodeClass used since start) is an
   * error, not an empty answer: garbage collection must never take "nothing read" for "nothing there".
   */
  private async knownAccounts(operation: string, listing = false): Promise<OvhAccount[]> {
    const accounts = await this.options.accounts.known();
    // Listing with no operator-wide cluster and no OVHNodeClass at all: nothing can have been launched on OVH, an
    // empty list is the truth (throwing would stop garbage collection for every other cloud of the install).
    if (listing && accounts.length === 0 && (await this.options.nodeClasses.listNodeClasses?.())?.length === 0) return [];
    if (accounts.length === 0) {
      throw new PermanentCloudError(
        `${operation}: no MKS cluster is known yet; accepted: operator-wide serviceName and kubeId, or an OVHNodeClass used by a NodePool`,
      );
    }
    return accounts;
  }

  private launchDeps(account: OvhAccount): PoolLaunchDeps {
    const { call, clock, pollIntervalMs, launchTimeoutMs, maxAntiAffinityNodes, clusterName } = this.options;
    return { account, clusterName, call, clock, lock: this.lock, pollIntervalMs, launchTimeoutMs, maxAntiAffinityNodes };
  }

  private cleanupDeps(account: OvhAccount) {
    return {
      account,
      clusterName: this.options.clusterName,
      call: this.options.call,
      clock: this.options.clock,
      lock: this.lock,
      graceMs: this.options.emptyPoolGraceMs,
    };
  }

  /** The account of the NodeClaim's NodeClass; undefined when it has none (a leak) or it cannot be resolved. */
  private async nodeClassAccount(nodeClaim: CloudProviderNodeClaim): Promise<OvhAccount | undefined> {
    const ref = nodeClaim.spec.nodeClassRef;
    if (ref.kind !== OVHNodeClassKind || ref.group !== OVHNodeClassGroup) return undefined;
    try {
      return await this.options.accounts.forNodeClass(await this.options.nodeClasses.getNodeClass(ref.name));
    } catch {
      return undefined;
    }
  }

  /** Releases the claim's node (or its record) if this cluster has it; false when it has neither. */
  private async deleteIn(account: OvhAccount, target: { claimKey: string; instanceId: string | undefined }): Promise<boolean> {
    const { claimKey, instanceId } = target;
    const view = await readCluster(account, this.options.call, this.options.clusterName);
    const found = instanceId ? view.nodes.find((m) => m.node.instanceId === instanceId) : undefined;
    if (found?.node.status === 'DELETING') return true;
    const deps = this.launchDeps(account);
    if (found) {
      await this.lock.run(familyLockKey(account, familyOfPoolName(found.pool.name)), () =>
        releaseClaim(deps, found.pool.id, claimKey, found.node),
      );
      return true;
    }
    const recordedPool = view.pools.find((p) => claimRecordsOf(p.template).has(claimKey));
    if (!recordedPool) return false;
    const node = await nodeOfRecordedClaim(deps, recordedPool.id, claimKey);
    if (node === 'not yet') return true;
    await this.lock.run(familyLockKey(account, familyOfPoolName(recordedPool.name)), () =>
      releaseClaim(deps, recordedPool.id, claimKey, node),
    );
    return true;
  }

  private async instanceTypesFor(nodeClass: OVHNodeClass): Promise<InstanceType[]> {
    const account = await this.options.accounts.forNodeClass(nodeClass);
    const types = await this.options.catalog.instanceTypes(account, nodeClass.spec.monthlyBilled ? 'monthly' : 'hourly');
    return this.options.unavailableOfferings.applyTo(types);
  }

  private async toCloudNodeClaim(account: OvhAccount, managed: ManagedNode): Promise<CloudNodeClaim> {
    const types = await this.options.catalog.instanceTypes(account, managed.pool.monthlyBilled ? 'monthly' : 'hourly');
    const instanceType = types.find((t) => t.name === managed.pool.flavor);
    return toCloudNodeClaim(managed, instanceType, zoneOf(managed.node, managed.pool, []));
  }
}

function keyOf(instanceType: string, zone: string): OfferingKey {
  return { instanceType, zone, capacityType: 'on-demand' };
}
