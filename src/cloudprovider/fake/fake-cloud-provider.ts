/**
 * A real, simple, in-memory CloudProvider (Karpenter's `pkg/cloudprovider/fake`): it filters the instance
 * types it was given by the NodeClaim's requirements and requests, launches the cheapest available
 * compatible offering, and records every call. Controllers' tests drive it through public knobs; it passes
 * the same contract suite as the real providers.
 */
import { LabelNodePool } from '../../apis/v1/labels.js';
import { compatibleOfferings, offeringLabels } from '../../domain/instancetypes/offering-choice.js';
import type { InstanceType, Offering } from '../../domain/instancetypes/types.js';
import type { Clock } from '../../util/clock.js';
import {
  InsufficientCapacityError,
  NodeClaimNotFoundError,
  PermanentCloudError,
  TransientCloudError,
  type OfferingKey,
} from '../errors.js';
import { offeringCacheKey, UnavailableOfferings } from '../unavailable-offerings.js';
import type {
  CloudNodeClaim,
  CloudProvider,
  CloudProviderNodeClaim,
  CloudProviderNodePool,
  DriftReason,
  NodeClassKind,
  RepairPolicy,
} from '../types.js';

export const FakeNodeClass: NodeClassKind = { group: 'karpenter.test.sh', version: 'v1alpha1', kind: 'TestNodeClass' };

export interface FakeCloudProviderOptions {
  instanceTypes: readonly InstanceType[];
  clock: Clock;
  /** Shared with whoever else reads offerings' availability; a private one when omitted. */
  unavailableOfferings?: UnavailableOfferings;
  name?: string;
  supportedNodeClasses?: NodeClassKind[];
  repairPolicies?: RepairPolicy[];
  imageID?: string;
}

interface Candidate {
  instanceType: InstanceType;
  offering: Offering;
}

export class FakeCloudProvider implements CloudProvider {
  readonly name: string;
  readonly unavailableOfferings: UnavailableOfferings;

  // Knobs: tests set them; `reset()` clears them.
  instanceTypes: readonly InstanceType[];
  /** Thrown by the next create (once). */
  nextCreateError: Error | undefined;
  /** Thrown by the next delete (once). */
  nextDeleteError: Error | undefined;
  /** Thrown by the next get (once). */
  nextGetError: Error | undefined;
  /** While set, every list throws it (a cloud that cannot be read). */
  listError: Error | undefined;
  /** List reads the "cloud" in pages of this size, like the real APIs. */
  listPageSize = 100;
  /** While set, reading this page (1-based) fails: a partial read, which list must not return. */
  failListPage: number | undefined;
  /** Creates beyond this many calls fail. */
  allowedCreateCalls = Number.POSITIVE_INFINITY;
  /** What isDrifted answers for every NodeClaim. */
  drifted: DriftReason | undefined;
  /** Offerings the "cloud" has no stock of (`offeringCacheKey` format); launching one fails with ICE. */
  readonly outOfStock = new Set<string>();

  // Records of calls, in order.
  readonly createCalls: CloudProviderNodeClaim[] = [];
  readonly deleteCalls: CloudProviderNodeClaim[] = [];
  readonly getCalls: string[] = [];
  listCalls = 0;

  // State: the "cloud".
  readonly instances = new Map<string, CloudNodeClaim>(); // providerID -> launched instance
  private readonly launchedFor = new Map<string, string>(); // NodeClaim uid or name -> providerID
  private nextInstanceId = 1;

  private readonly clock: Clock;
  private readonly nodeClasses: NodeClassKind[];
  private readonly policies: RepairPolicy[];
  private readonly imageID: string;
  private readonly initialInstanceTypes: readonly InstanceType[];

  constructor(options: FakeCloudProviderOptions) {
    this.name = options.name ?? 'fake';
    this.clock = options.clock;
    this.instanceTypes = options.instanceTypes;
    this.initialInstanceTypes = options.instanceTypes;
    this.unavailableOfferings = options.unavailableOfferings ?? new UnavailableOfferings({ clock: options.clock });
    this.nodeClasses = options.supportedNodeClasses ?? [FakeNodeClass];
    this.policies = options.repairPolicies ?? [];
    this.imageID = options.imageID ?? 'fake-image-1';
  }

  /** Forgets instances, records and knobs; must be called between tests or they pollute each other. */
  reset(): void {
    this.instanceTypes = this.initialInstanceTypes;
    this.nextCreateError = undefined;
    this.nextDeleteError = undefined;
    this.nextGetError = undefined;
    this.listError = undefined;
    this.listPageSize = 100;
    this.failListPage = undefined;
    this.allowedCreateCalls = Number.POSITIVE_INFINITY;
    this.drifted = undefined;
    this.outOfStock.clear();
    this.createCalls.length = 0;
    this.deleteCalls.length = 0;
    this.getCalls.length = 0;
    this.listCalls = 0;
    this.instances.clear();
    this.launchedFor.clear();
    this.unavailableOfferings.flush();
  }

  async create(nodeClaim: CloudProviderNodeClaim): Promise<CloudNodeClaim> {
    this.createCalls.push(nodeClaim);
    if (this.createCalls.length > this.allowedCreateCalls) {
      throw new PermanentCloudError(`creating nodeclaim ${nameOf(nodeClaim)}: allowed create calls (${this.allowedCreateCalls}) exceeded`);
    }
    const injected = this.takeNextCreateError();
    if (injected) throw injected;
    const existing = this.launchedFor.get(idempotencyKey(nodeClaim));
    const launched = existing ? this.instances.get(existing) : undefined;
    if (launched) return launched;
    return this.launch(nodeClaim, this.cheapestCandidate(nodeClaim));
  }

  async delete(nodeClaim: CloudProviderNodeClaim): Promise<void> {
    this.deleteCalls.push(nodeClaim);
    const injected = this.nextDeleteError;
    this.nextDeleteError = undefined;
    if (injected) throw injected;
    const providerID = nodeClaim.status?.providerID;
    if (!providerID) throw new NodeClaimNotFoundError(`deleting nodeclaim ${nameOf(nodeClaim)}: no providerID`);
    if (!this.instances.delete(providerID)) {
      throw new NodeClaimNotFoundError(`deleting nodeclaim ${nameOf(nodeClaim)}: instance ${providerID} not found`);
    }
  }

  async get(providerID: string): Promise<CloudNodeClaim> {
    this.getCalls.push(providerID);
    const injected = this.nextGetError;
    this.nextGetError = undefined;
    if (injected) throw injected;
    const instance = this.instances.get(providerID);
    if (!instance) throw new NodeClaimNotFoundError(`getting instance ${providerID}: not found`);
    return instance;
  }

  async list(): Promise<CloudNodeClaim[]> {
    this.listCalls += 1;
    if (this.listError) throw new TransientCloudError('listing instances: cloud unreadable', { cause: this.listError });
    const all = [...this.instances.values()];
    const listed: CloudNodeClaim[] = [];
    const size = Math.max(1, Math.floor(this.listPageSize));
    for (let page = 1; (page - 1) * size < all.length; page++) {
      if (page === this.failListPage) {
        throw new TransientCloudError(`listing instances: reading page ${page} failed after ${listed.length} instances`);
      }
      listed.push(...all.slice((page - 1) * size, page * size));
    }
    return listed;
  }

  async getInstanceTypes(_nodePool: CloudProviderNodePool): Promise<InstanceType[]> {
    return this.unavailableOfferings.applyTo(this.instanceTypes);
  }

  async isDrifted(_nodeClaim: CloudProviderNodeClaim): Promise<DriftReason | undefined> {
    return this.drifted;
  }

  getSupportedNodeClasses(): NodeClassKind[] {
    return [...this.nodeClasses];
  }

  repairPolicies(): RepairPolicy[] {
    return [...this.policies];
  }

  private takeNextCreateError(): Error | undefined {
    const injected = this.nextCreateError;
    this.nextCreateError = undefined;
    return injected;
  }

  /** The cheapest available offering, chosen by the one offering rule every provider launches with. */
  private cheapestCandidate(nodeClaim: CloudProviderNodeClaim): Candidate {
    const candidates = compatibleOfferings(this.unavailableOfferings.applyTo(this.instanceTypes), nodeClaim.spec);
    const best = candidates.find((c) => c.offering.available);
    if (!best) {
      throw new InsufficientCapacityError(
        `creating nodeclaim ${nameOf(nodeClaim)}: no available offering satisfies its requirements and requests`,
        [],
      );
    }
    return best;
  }

  private launch(nodeClaim: CloudProviderNodeClaim, { instanceType, offering }: Candidate): CloudNodeClaim {
    const key: OfferingKey = { instanceType: instanceType.name, zone: offering.zone, capacityType: offering.capacityType };
    if (this.outOfStock.has(offeringCacheKey(key))) {
      const error = new InsufficientCapacityError(
        `creating nodeclaim ${nameOf(nodeClaim)}: ${instanceType.name} out of stock in ${offering.zone}`,
        [key],
      );
      this.unavailableOfferings.markFromError(error);
      throw error;
    }
    const providerID = `fake:///${offering.zone}/i-${String(this.nextInstanceId++).padStart(8, '0')}`;
    const nodePool = nodeClaim.metadata?.labels?.[LabelNodePool];
    const instance: CloudNodeClaim = {
      providerID,
      nodeClaimName: nameOf(nodeClaim),
      ...(nodePool !== undefined ? { nodePoolName: nodePool } : {}),
      instanceType: instanceType.name,
      zone: offering.zone,
      capacityType: offering.capacityType,
      imageID: this.imageID,
      capacity: instanceType.capacity,
      allocatable: instanceType.allocatable,
      labels: {
        ...offeringLabels(instanceType, offering),
        ...(nodePool !== undefined ? { [LabelNodePool]: nodePool } : {}),
      },
      createdAt: this.clock.now(),
    };
    this.instances.set(providerID, instance);
    this.launchedFor.set(idempotencyKey(nodeClaim), providerID);
    return instance;
  }
}

function nameOf(nodeClaim: CloudProviderNodeClaim): string {
  return nodeClaim.metadata?.name ?? '';
}

function idempotencyKey(nodeClaim: CloudProviderNodeClaim): string {
  return nodeClaim.metadata?.uid ?? nameOf(nodeClaim);
}
