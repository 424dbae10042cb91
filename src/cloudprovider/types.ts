/**
 * The one port through which everything reaches a cloud — Karpenter's CloudProvider
 * (`pkg/cloudprovider/types.go`) in TypeScript. Each cloud (OVHcloud MKS, Scaleway, Outscale) and the fake
 * implement it; every implementation must pass `test/contract/cloudprovider.contract.ts`.
 *
 * Errors are the classes of `./errors.ts`; what each one means for each method is written on the method.
 * Any other error (a TransientCloudError after retries, a PermanentCloudError…) means "this call failed,
 * the state of the cloud is unknown": callers requeue and must not infer anything from it.
 */
import type { InstanceType, ResourceList } from '../domain/instancetypes/types.js';
import type { NodeClassCloudFacts } from '../domain/nodeclass/cloud-facts.js';
import type { NodeClassReference, NodeSelectorRequirementWithMinValues } from '../apis/v1/common.js';
import type { NodeClaim } from '../apis/v1/nodeclaim.js';
import type { NodePool } from '../apis/v1/nodepool.js';
import type { RepairPolicy } from '../domain/repair/node-repair.js';

/** The `karpenter.sh/v1` NodeClaim a provider launches for; the port reads its name, uid, labels, spec, status.providerID. */
export type CloudProviderNodeClaim = NodeClaim;
/** The `karpenter.sh/v1` NodePool whose instance types are asked for; the port reads its template's nodeClassRef. */
export type CloudProviderNodePool = NodePool;
export type CloudProviderRequirement = NodeSelectorRequirementWithMinValues;
export type { NodeClassReference, NodeClassCloudFacts };

/**
 * A NodeClaim as the cloud knows it: what `create` launched, what `get` and `list` find. Karpenter returns
 * a hydrated v1.NodeClaim; here the cloud facts are plain data and the lifecycle controller copies them
 * onto the NodeClaim's status and labels.
 */
export interface CloudNodeClaim {
  /** `openstack:///<id>`, `scaleway://instance/<zone>/<id>`, `aws:///<subregion>/<id>`. */
  providerID: string;
  /** The NodeClaim this instance was launched for, when the cloud recorded it (tag, pool annotation…). */
  nodeClaimName?: string;
  nodePoolName?: string;
  instanceType: string;
  zone: string;
  capacityType: string;
  /** The image (OMI, Scaleway image, MKS node image) the instance boots, when the cloud reports it. */
  imageID?: string;
  capacity: ResourceList;
  allocatable: ResourceList;
  /** Well-known and karpenter-eu.io labels resolved for the launched instance (instance type, zone…). */
  labels: Readonly<Record<string, string>>;
  /** When the cloud created the instance (epoch ms); garbage collection spares young instances. */
  createdAt: number;
  /** True while the cloud is terminating the instance (it still appears in `list`). */
  terminating?: boolean;
}

/**
 * A cloud resource a provider allocated for a NodeClaim besides its instance (an Outscale flexible GPU),
 * found by the tags it got at creation.
 */
export interface ClaimResource {
  /** The cloud's id of the resource. */
  id: string;
  /** What it is, for logs and metrics (`flexible-gpu`). */
  kind: string;
  /** The `name` of the provider that listed it: where its deletion goes when several clouds are routed. */
  provider: string;
  nodeClaimName: string;
  /** Held by an instance: it goes with that instance. */
  attached: boolean;
}

/** Why a launched NodeClaim no longer matches its NodeClass (`ImageDrifted`, `SecurityGroupsDrifted`…). */
export type DriftReason = string;

/** A node condition that, held long enough, makes Karpenter replace the node (node auto-repair). */
/** A Node condition that, held past its toleration, gets the node replaced (node repair, domain/repair). */
export type { RepairPolicy };

/** A NodeClass kind a provider serves, e.g. `{group: 'karpenter.ovhcloud.sh', version: 'v1alpha1', kind: 'OVHNodeClass'}`. */
export interface NodeClassKind {
  group: string;
  version: string;
  kind: string;
}

export interface CloudProvider {
  /** The cloud's name, the `provider` label of metrics and the value of `karpenter-eu.io/cloud` (a CloudName for the real clouds). */
  readonly name: string;

  /**
   * Launches an instance for the NodeClaim, choosing among the instance types and offerings its
   * requirements allow (cheapest available first), and returns the launched instance.
   * Idempotent and resuming per NodeClaim: a retry after a timeout, or a restart mid-create (the lifecycle
   * calls create again for every NodeClaim whose launch was requested but not recorded), must find what
   * the cloud already holds for it (by NodeClaim name / UID / client token / pool record), never launch a
   * second one, and finish it from whatever step it stopped at: power on, user data, accelerators (GPUs
   * created for the claim are found again by their tags, never allocated twice), pool size accounted.
   * It resolves only with an instance that is running or booting with everything it needs to join.
   * Errors: InsufficientCapacityError when every compatible offering tried was out of stock (those
   * offerings are marked unavailable); QuotaExceededError; NodeClassNotReadyError when the NodeClass or
   * its Secret cannot be used; CreateError for a launch failure with a condition to show the user.
   */
  create(nodeClaim: CloudProviderNodeClaim): Promise<CloudNodeClaim>;

  /**
   * Starts terminating the NodeClaim's instance (by `status.providerID`). Resolves when termination was
   * triggered or is under way; Karpenter calls it again until it throws NodeClaimNotFoundError, which
   * means "the instance is gone" (also when the NodeClaim has no providerID). Never resolves for an
   * instance that is gone, so that a second delete after termination throws NodeClaimNotFoundError.
   */
  delete(nodeClaim: CloudProviderNodeClaim): Promise<void>;

  /** The instance with this providerID. Errors: NodeClaimNotFoundError when it does not exist or is terminated. */
  get(providerID: string): Promise<CloudNodeClaim>;

  /**
   * Every instance this cluster owns (found by the cluster's tag/pool names), terminating ones included.
   * Garbage collection deletes NodeClaims whose instance is missing from this list, so it must be complete:
   * when any page, region or pool cannot be read, list THROWS — it never returns an empty or partial list.
   */
  list(): Promise<CloudNodeClaim[]>;

  /**
   * All instance types the NodePool's NodeClass can launch — even those without any available offering —
   * with each offering's `available` false while the cloud reports it out of stock or the
   * unavailable-offerings cache holds it. Errors: NodeClassNotReadyError.
   */
  getInstanceTypes(nodePool: CloudProviderNodePool): Promise<InstanceType[]>;

  /** Why the NodeClaim's instance no longer matches its NodeClass, or undefined when it still does. */
  isDrifted(nodeClaim: CloudProviderNodeClaim): Promise<DriftReason | undefined>;

  /** The NodeClass kinds this provider serves (`nodeClassRef` of NodePools it can launch for). */
  getSupportedNodeClasses(): NodeClassKind[];

  /** Node conditions that make a node unhealthy enough to replace; empty disables auto-repair. */
  repairPolicies(): RepairPolicy[];

  /**
   * Optional, for providers that allocate more than the instance per NodeClaim: every such resource of this
   * cluster, from every account. Like `list`, it THROWS when anything cannot be read — never a partial list.
   */
  listClaimResources?(): Promise<ClaimResource[]>;

  /** Optional, with `listClaimResources`: releases one. Resolves when done or already gone. */
  deleteClaimResource?(resource: ClaimResource): Promise<void>;

  /**
   * Optional: the cluster a NodeClass runs in (OVH's kubeId): the one it or the service names, else what the
   * provider detected, or why it could not; undefined when the kind has no cluster. For the NodeClass's status.
   */
  detectedCluster?(kind: string, name: string): Promise<DetectedCluster | undefined>;

  /**
   * Optional: the regions of each cloud this provider serves, as the cloud lists them, for admission (a
   * region a live list lacks is denied). A cloud whose list could not be read carries the error; a cloud with
   * nothing to list (no account configured) is left out. A list is never partial or empty.
   */
  listRegions?(): Promise<CloudRegions[]>;

  /**
   * Optional: what the cloud says about the resources a NodeClass names (credentials accepted, project and
   * cluster, image, subnets, security groups), for its status; undefined when the kind is not this provider's.
   * Throws when the cloud could not be asked (the status is left as it is).
   */
  nodeClassFacts?(kind: string, name: string): Promise<NodeClassCloudFacts | undefined>;
}

/** A cloud's region list: the regions (and their zones when the same answers give them), or why it could not be read. */
export interface CloudRegions {
  cloud: string;
  regions?: { name: string; zones?: string[] }[];
  error?: Error;
}

export interface DetectedCluster {
  detected?: { kubeId: string; region: string };
  /** The cluster the class or the service names (spec.kubeId, else the service's kubeId), for status.kubeId. */
  named?: { kubeId: string };
  notDetected?: string;
}

/** A reference to a Secret holding cloud credentials (`credentialsSecretRef` of the NodeClasses). */
export interface SecretReference {
  name: string;
  namespace: string;
}

/**
 * How a provider reads its NodeClass and credentials Secret: a port injected at the composition root
 * (backed by the informer cache in the service, by plain maps in tests), not a kube client.
 * `TNodeClass` is the provider's own NodeClass type.
 */
export interface NodeClassResolver<TNodeClass> {
  /** The NodeClass by name. Errors: NodeClassNotReadyError when it does not exist or is being deleted. */
  getNodeClass(name: string): Promise<TNodeClass>;
  /** The Secret's decoded data. Errors: NodeClassNotReadyError when the Secret or a needed key is missing. */
  getSecretData(ref: SecretReference): Promise<Readonly<Record<string, string>>>;
  /**
   * Every NodeClass of this kind that exists, being deleted included (its finalizer holds it while NodeClaims
   * use it). list(), get() and delete() use it to know every account a NodeClass names, including right after a
   * restart, before any of them launched anything.
   */
  listNodeClasses?(): Promise<TNodeClass[]>;
}

/**
 * Which members of a cloud's API port change the cloud (`write`) and which only read (`read`); plain values are
 * `value`. Each cloud declares it next to its port, exhaustively, so a new call cannot be left unclassified.
 */
export type ApiCallKinds<T> = {
  readonly [K in keyof T]-?: T[K] extends (...args: never[]) => unknown ? 'read' | 'write' : 'value';
};

/**
 * Wraps a cloud's API port so that each `write` call first asks whether this replica may still act (the
 * leader's write fence); the composition root passes it to the providers.
 */
export type ApiGuard = <T extends object>(api: T, kinds: ApiCallKinds<T>) => T;
