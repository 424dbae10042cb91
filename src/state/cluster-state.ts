/**
 * ClusterState (Karpenter's `state.Cluster`): the in-memory view of pods, nodes, NodeClaims, NodePools,
 * NodeClasses, DaemonSets and PDBs that informers keep current, with the indexes the controllers look things
 * up by, and the marks only this process knows (nodes chosen for deletion, nodes nominated for pending pods).
 * Decisions are made on `snapshot()`, plain data, never on the live maps.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import type { DraObjects } from '../domain/dra/index.js';
import type { V1DaemonSet, V1Node, V1Pod, V1PodDisruptionBudget } from '@kubernetes/client-node';
import { LabelNodeInitialized, type NodeClaim, type NodeOverlay, type NodePool } from '../apis/index.js';
import type { DisruptionOutlook } from '../domain/disruption/outlook.js';
import { usageByNodePool, usageCapacity } from '../domain/nodepool/limits.js';
import { isTerminal } from '../domain/pods/index.js';
import { isProvisionable } from '../domain/provisioning/index.js';
import type { Clock } from '../util/clock.js';
import { hasDeletionTimestamp, nodePoolOf, objectKey } from './object-keys.js';
import type { ClusterSnapshot, NodeClassEntry, NodePoolUsage, StateNode } from './snapshot.js';

export interface ClusterStateOptions {
  clock: Clock;
  /**
   * How long a nomination keeps a node off the disruption list: Karpenter uses twice the batch max duration
   * (20 s by default) so the pods it was nominated for have time to bind.
   */
  nominationWindowMs?: number;
  /** How long a NodeClaim this process created counts before its watch event confirms it (default 60 s). */
  createdTtlMs?: number;
}

/**
 * How the service reads a stored NodePool: with its read-time defaults (domain/admission effectiveNodePool),
 * which depend on the NodeClass it names and on the catalogs. Set by the operator; without one, pools read as stored.
 */
export interface NodePoolReader {
  read(pool: NodePool, nodeClasses: readonly NodeClassEntry[]): NodePool;
  /** Changes when what `read` depends on outside this state (the catalogs) changes. */
  version(): unknown;
}

const defaultNominationWindowMs = 20_000;
const defaultCreatedTtlMs = 60_000;
/** Deleted NodeClaim names remembered, so a create recorded after its own deletion is not resurrected. */
const deletedNamesKept = 10_000;

/** A multimap helper: key -> set of member keys. */
class SetIndex {
  private readonly sets = new Map<string, Set<string>>();

  add(key: string | undefined, member: string): void {
    if (key === undefined) return;
    let set = this.sets.get(key);
    if (!set) this.sets.set(key, (set = new Set()));
    set.add(member);
  }

  remove(key: string | undefined, member: string): void {
    if (key === undefined) return;
    const set = this.sets.get(key);
    if (!set) return;
    set.delete(member);
    if (set.size === 0) this.sets.delete(key);
  }

  get(key: string): ReadonlySet<string> {
    return this.sets.get(key) ?? new Set();
  }
}

/** The resource.k8s.io kinds state keeps when DRA is on. */
export const DraKinds = ['ResourceClaim', 'ResourceClaimTemplate', 'DeviceClass', 'ResourceSlice'] as const;
export type DraKind = (typeof DraKinds)[number];

export class ClusterState {
  private readonly pods = new Map<string, V1Pod>(); // namespace/name -> pod
  private readonly podsByNode = new SetIndex(); // node name -> pod keys
  private readonly nodes = new Map<string, V1Node>(); // name -> node
  private readonly nodeByProviderID = new Map<string, string>(); // providerID -> node name
  private readonly nodeClaims = new Map<string, NodeClaim>(); // name -> nodeclaim
  private readonly nodeClaimByProviderID = new Map<string, string>(); // providerID -> nodeclaim name
  private readonly nodeClaimsByNodePool = new SetIndex(); // nodepool -> nodeclaim names
  private readonly nodePools = new Map<string, NodePool>();
  private readonly nodeClasses = new Map<string, NodeClassEntry>(); // `<kind>/<name>` -> entry
  private readonly nodeOverlays = new Map<string, NodeOverlay>(); // name -> overlay (fed only with the NodeOverlay gate on)
  private readonly daemonSets = new Map<string, V1DaemonSet>();
  /** resource.k8s.io kind -> `namespace/name` (or name) -> object; undefined until DRA objects are watched. */
  private dra: Map<DraKind, Map<string, KubernetesObject>> | undefined;
  private readonly pdbs = new Map<string, V1PodDisruptionBudget>();
  private readonly markedForDeletion = new Set<string>(); // state node keys
  private readonly nominatedUntil = new Map<string, number>(); // state node key -> clock ms
  private readonly created = new Map<string, { nodeClaim: NodeClaim; at: number }>(); // name -> own create, watch not seen yet
  private readonly deletedNodeClaims = new Set<string>(); // names, oldest first
  private outlook: Map<string, DisruptionOutlook> | undefined; // node name -> what disruption may do to it (leader only)
  private readonly nodeListeners: ((nodeName: string) => void)[] = [];
  private definitionsRevision = 0; // bumped on every NodePool, NodeClass and NodeClaim change
  private syncedSource: () => boolean = () => false;
  private nodePoolReader: NodePoolReader | undefined;
  private poolInputsRevision = 0; // bumped on every NodePool and NodeClass change: what the read pools derive from
  private readPools: { revision: number; version: unknown; pools: Map<string, NodePool> } | undefined;

  constructor(private readonly options: ClusterStateOptions) {}

  /** Synced means every informer listed once (set by the informer wiring). */
  setSyncedSource(source: () => boolean): void {
    this.syncedSource = source;
  }

  synced(): boolean {
    return this.syncedSource();
  }

  /** Every NodePool reader of this state (snapshot, nodePool, nodePoolList) sees the pools through `reader`. */
  setNodePoolReader(reader: NodePoolReader): void {
    this.nodePoolReader = reader;
    this.readPools = undefined;
  }

  // --- feeding (informer handlers) ---

  updatePod(pod: V1Pod): void {
    const key = objectKey(pod);
    const before = this.pods.get(key)?.spec?.nodeName;
    this.podsByNode.remove(before, key);
    this.pods.set(key, pod);
    const after = pod.spec?.nodeName || undefined;
    this.podsByNode.add(after, key);
    this.nodeChanged(before);
    if (after !== before) this.nodeChanged(after);
  }

  deletePod(pod: V1Pod): void {
    const key = objectKey(pod);
    const before = this.pods.get(key)?.spec?.nodeName;
    this.podsByNode.remove(before, key);
    this.pods.delete(key);
    this.nodeChanged(before);
  }

  updateNode(node: V1Node): void {
    const name = node.metadata?.name ?? '';
    const old = this.nodes.get(name);
    if (old?.spec?.providerID) this.nodeByProviderID.delete(old.spec.providerID);
    this.nodes.set(name, node);
    if (node.spec?.providerID) this.nodeByProviderID.set(node.spec.providerID, name);
    this.nodeChanged(name);
  }

  deleteNode(node: V1Node): void {
    const name = node.metadata?.name ?? '';
    const old = this.nodes.get(name);
    if (old?.spec?.providerID) {
      this.nodeByProviderID.delete(old.spec.providerID);
      this.forgetMarks(old.spec.providerID);
    }
    this.forgetMarks(`node/${name}`);
    this.nodes.delete(name);
    this.outlook?.delete(name);
    this.nodeChanged(name);
  }

  updateNodeClaim(nodeClaim: NodeClaim): void {
    this.definitionsRevision++;
    const name = nodeClaim.metadata?.name ?? '';
    this.created.delete(name);
    const previousProviderID = this.nodeClaims.get(name)?.status?.providerID;
    this.unindexNodeClaim(name);
    this.nodeClaims.set(name, nodeClaim);
    if (nodeClaim.status?.providerID) this.nodeClaimByProviderID.set(nodeClaim.status.providerID, name);
    this.nodeClaimsByNodePool.add(nodePoolOf(nodeClaim), name);
    this.nodeChanged(this.nodeByProviderID.get(nodeClaim.status?.providerID ?? ''));
    if (previousProviderID !== nodeClaim.status?.providerID) this.nodeChanged(this.nodeByProviderID.get(previousProviderID ?? ''));
  }

  deleteNodeClaim(nodeClaim: NodeClaim): void {
    this.definitionsRevision++;
    const name = nodeClaim.metadata?.name ?? '';
    const providerID = this.nodeClaims.get(name)?.status?.providerID;
    this.unindexNodeClaim(name);
    this.nodeClaims.delete(name);
    this.created.delete(name);
    this.rememberDeleted(name);
    this.forgetMarks(`nodeclaim/${name}`);
    if (providerID && !this.nodeByProviderID.has(providerID)) this.forgetMarks(providerID);
    this.nodeChanged(this.nodeByProviderID.get(providerID ?? ''));
  }

  /**
   * A NodeClaim this process just created, as the API server returned it: every reader plans on it from now on,
   * not only once its watch event arrives (upstream records its creates in cluster state the same way, so a
   * pass between the create and the event does not launch for the same pods again). The watch's own version
   * replaces it; one already shown, deleted, or not confirmed within `createdTtlMs` is not kept.
   */
  recordCreatedNodeClaim(nodeClaim: NodeClaim): void {
    const name = nodeClaim.metadata?.name ?? '';
    if (name === '' || this.nodeClaims.has(name) || this.deletedNodeClaims.has(name)) return;
    this.definitionsRevision++;
    this.created.set(name, { nodeClaim, at: this.options.clock.now() });
  }

  updateNodePool(nodePool: NodePool): void {
    this.definitionsRevision++;
    this.poolInputsRevision++;
    this.nodePools.set(nodePool.metadata?.name ?? '', nodePool);
    this.nodePoolChanged(nodePool.metadata?.name ?? '');
  }

  deleteNodePool(nodePool: NodePool): void {
    this.definitionsRevision++;
    this.poolInputsRevision++;
    this.nodePools.delete(nodePool.metadata?.name ?? '');
    this.nodePoolChanged(nodePool.metadata?.name ?? '');
  }

  updateNodeClass(kind: string, object: NodeClassEntry['object']): void {
    this.definitionsRevision++;
    this.poolInputsRevision++;
    const name = object.metadata?.name ?? '';
    this.nodeClasses.set(`${kind}/${name}`, { kind, name, object });
  }

  deleteNodeClass(kind: string, object: NodeClassEntry['object']): void {
    this.definitionsRevision++;
    this.poolInputsRevision++;
    this.nodeClasses.delete(`${kind}/${object.metadata?.name ?? ''}`);
  }

  updateNodeOverlay(overlay: NodeOverlay): void {
    this.definitionsRevision++;
    this.nodeOverlays.set(overlay.metadata?.name ?? '', overlay);
    this.everyNodeChanged();
  }

  deleteNodeOverlay(overlay: NodeOverlay): void {
    this.definitionsRevision++;
    this.nodeOverlays.delete(overlay.metadata?.name ?? '');
    this.everyNodeChanged();
  }

  /** DRA objects are watched: snapshots carry them (empty lists until their informers list). */
  watchDynamicResources(): void {
    this.dra ??= new Map(DraKinds.map((k) => [k, new Map()]));
  }

  updateDraObject(kind: DraKind, object: KubernetesObject): void {
    this.watchDynamicResources();
    this.dra?.get(kind)?.set(objectKey(object), object);
  }

  deleteDraObject(kind: DraKind, object: KubernetesObject): void {
    this.dra?.get(kind)?.delete(objectKey(object));
  }

  private draObjects(): DraObjects | undefined {
    if (!this.dra) return undefined;
    const list = <T>(kind: DraKind): T[] => [...(this.dra?.get(kind)?.values() ?? [])] as T[];
    return {
      resourceClaims: list('ResourceClaim'),
      resourceClaimTemplates: list('ResourceClaimTemplate'),
      deviceClasses: list('DeviceClass'),
      resourceSlices: list('ResourceSlice'),
    };
  }

  updateDaemonSet(daemonSet: V1DaemonSet): void {
    this.daemonSets.set(objectKey(daemonSet), daemonSet);
  }

  deleteDaemonSet(daemonSet: V1DaemonSet): void {
    this.daemonSets.delete(objectKey(daemonSet));
  }

  updatePodDisruptionBudget(pdb: V1PodDisruptionBudget): void {
    this.pdbs.set(objectKey(pdb), pdb);
  }

  deletePodDisruptionBudget(pdb: V1PodDisruptionBudget): void {
    this.pdbs.delete(objectKey(pdb));
  }

  // --- marks ---

  /** Disruption chose these state nodes (by StateNode.key): keep them out of scheduling and candidates. */
  markForDeletion(...keys: string[]): void {
    for (const key of keys) {
      this.markedForDeletion.add(key);
      this.nodeChanged(this.nodeNameOfKey(key));
    }
  }

  /** The command failed: the nodes are usable again. */
  unmarkForDeletion(...keys: string[]): void {
    for (const key of keys) {
      this.markedForDeletion.delete(key);
      this.nodeChanged(this.nodeNameOfKey(key));
    }
  }

  /**
   * Disruption's latest view of which nodes it may take soon (replaces the previous one); undefined when this
   * process no longer runs disruption (it lost the lease), so readers fall back to the NodeClaims' conditions.
   */
  setDisruptionOutlook(outlook: ReadonlyMap<string, DisruptionOutlook> | undefined): void {
    const previous = this.outlook;
    this.outlook = outlook === undefined ? undefined : new Map(outlook);
    if ((previous === undefined) !== (outlook === undefined)) {
      for (const name of this.nodes.keys()) this.nodeChanged(name);
      return;
    }
    for (const [name, value] of previous ?? []) if (outlook?.get(name) !== value) this.nodeChanged(name);
    for (const [name, value] of outlook ?? []) if (previous?.get(name) !== value) this.nodeChanged(name);
  }

  /**
   * Called with a node's name whenever something about it changes: the Node, its NodeClaim, a pod bound to it,
   * a deletion mark or its disruption outlook. Lets readers keep per-node derivations instead of recomputing.
   * Returns the call that stops it.
   */
  onNodeChange(listener: (nodeName: string) => void): () => void {
    this.nodeListeners.push(listener);
    return () => {
      const at = this.nodeListeners.indexOf(listener);
      if (at >= 0) this.nodeListeners.splice(at, 1);
    };
  }

  /** Pending pods are expected to land on this state node: don't disrupt it for the nomination window. */
  nominate(key: string): void {
    this.nominatedUntil.set(key, this.options.clock.now() + (this.options.nominationWindowMs ?? defaultNominationWindowMs));
  }

  // --- lookups ---

  pod(namespace: string, name: string): V1Pod | undefined {
    return this.pods.get(`${namespace}/${name}`);
  }

  podsOnNode(nodeName: string): V1Pod[] {
    return [...this.podsByNode.get(nodeName)].flatMap((key) => this.pods.get(key) ?? []);
  }

  node(name: string): V1Node | undefined {
    return this.nodes.get(name);
  }

  /** Whether disruption chose this node (by StateNode key: providerID, else `node/<name>`). */
  isMarkedForDeletion(key: string): boolean {
    return this.markedForDeletion.has(key);
  }

  /** Whether this process runs disruption and has published its outlook (then absence means "stays"). */
  hasDisruptionOutlook(): boolean {
    return this.outlook !== undefined;
  }

  disruptionOutlook(nodeName: string): DisruptionOutlook | undefined {
    return this.outlook?.get(nodeName);
  }

  nodeByProvider(providerID: string): V1Node | undefined {
    const name = this.nodeByProviderID.get(providerID);
    return name === undefined ? undefined : this.nodes.get(name);
  }

  nodeClaim(name: string): NodeClaim | undefined {
    return this.nodeClaims.get(name) ?? this.createdNodeClaims(this.options.clock.now()).get(name);
  }

  nodeClaimByProvider(providerID: string): NodeClaim | undefined {
    const name = this.nodeClaimByProviderID.get(providerID);
    return name === undefined ? undefined : this.nodeClaims.get(name);
  }

  nodeClaimsOfNodePool(nodePool: string): NodeClaim[] {
    return [...this.nodeClaimsByNodePool.get(nodePool)].flatMap((name) => this.nodeClaims.get(name) ?? []);
  }

  /** The NodePool as the service reads it (see NodePoolReader). */
  nodePool(name: string): NodePool | undefined {
    return this.readNodePools().get(name);
  }

  nodeClass(kind: string, name: string): NodeClassEntry | undefined {
    return this.nodeClasses.get(`${kind}/${name}`);
  }

  nodeClassesOfKind(kind: string): NodeClassEntry[] {
    return [...this.nodeClasses.values()].filter((e) => e.kind === kind);
  }

  /** Changes whenever a NodePool, NodeClass or NodeClaim is added, updated or removed: lets readers keep lists. */
  definitionsVersion(): number {
    return this.definitionsRevision;
  }

  /** The NodePools as the service reads them (see NodePoolReader). */
  nodePoolList(): NodePool[] {
    return [...this.readNodePools().values()];
  }

  /** The read pools, derived again only when a NodePool, a NodeClass or the reader's inputs changed. */
  private readNodePools(): ReadonlyMap<string, NodePool> {
    const reader = this.nodePoolReader;
    if (!reader) return this.nodePools;
    const version = reader.version();
    const cached = this.readPools;
    if (cached?.revision === this.poolInputsRevision && cached.version === version) return cached.pools;
    const classes = this.nodeClassList();
    const pools = new Map([...this.nodePools].map(([name, pool]) => [name, reader.read(pool, classes)]));
    this.readPools = { revision: this.poolInputsRevision, version, pools };
    return pools;
  }

  nodeClassList(): NodeClassEntry[] {
    return [...this.nodeClasses.values()];
  }

  nodeOverlayList(): NodeOverlay[] {
    return [...this.nodeOverlays.values()];
  }

  nodeClaimList(): NodeClaim[] {
    return [...this.nodeClaims.values()];
  }

  podList(): V1Pod[] {
    return [...this.pods.values()];
  }

  counts(): { pods: number; nodes: number; nodeClaims: number; nodePools: number } {
    return { pods: this.pods.size, nodes: this.nodes.size, nodeClaims: this.nodeClaims.size, nodePools: this.nodePools.size };
  }

  // --- snapshot ---

  /** The state nodes (Node ⋈ NodeClaim by providerID), sorted by name. */
  stateNodes(): StateNode[] {
    const now = this.options.clock.now();
    const out: StateNode[] = [];
    const joinedClaims = new Set<string>();
    for (const node of this.nodes.values()) {
      const providerID = node.spec?.providerID || undefined;
      const claimName = providerID === undefined ? undefined : this.nodeClaimByProviderID.get(providerID);
      if (claimName !== undefined) joinedClaims.add(claimName);
      out.push(this.stateNode(node, claimName === undefined ? undefined : this.nodeClaims.get(claimName), now));
    }
    for (const [name, claim] of this.nodeClaims) {
      if (!joinedClaims.has(name)) out.push(this.stateNode(undefined, claim, now));
    }
    for (const claim of this.createdNodeClaims(now).values()) out.push(this.stateNode(undefined, claim, now));
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  snapshot(): ClusterSnapshot {
    const nodes = this.stateNodes();
    return {
      takenAt: this.options.clock.now(),
      synced: this.synced(),
      nodes,
      pendingPods: [...this.pods.values()].filter(isProvisionable),
      nodePools: this.nodePoolList(),
      nodeClasses: this.nodeClassList(),
      daemonSets: [...this.daemonSets.values()],
      podDisruptionBudgets: [...this.pdbs.values()],
      nodePoolUsage: nodePoolUsage(nodes),
      ...(this.dra ? { dra: this.draObjects() } : {}),
    };
  }

  private stateNode(node: V1Node | undefined, nodeClaim: NodeClaim | undefined, now: number): StateNode {
    const { providerID, nodeName, name, key } = stateNodeIdentity(node, nodeClaim);
    const deleting = (node !== undefined && hasDeletionTimestamp(node)) || (nodeClaim !== undefined && hasDeletionTimestamp(nodeClaim));
    return {
      key,
      name,
      providerID,
      node,
      nodeClaim,
      nodePool: (nodeClaim && nodePoolOf(nodeClaim)) ?? (node && nodePoolOf(node)),
      pods: nodeName === undefined ? [] : this.podsOnNode(nodeName).filter((p) => !isTerminal(p)),
      markedForDeletion: deleting || this.markedForDeletion.has(key),
      nominated: (this.nominatedUntil.get(key) ?? 0) > now,
      initialized: node?.metadata?.labels?.[LabelNodeInitialized] === 'true',
      managed: nodeClaim !== undefined,
    };
  }

  /** Own creates the watch has not shown yet, within their time to live. */
  private createdNodeClaims(now: number): Map<string, NodeClaim> {
    const ttl = this.options.createdTtlMs ?? defaultCreatedTtlMs;
    const out = new Map<string, NodeClaim>();
    for (const [name, entry] of this.created) {
      if (now - entry.at > ttl) this.created.delete(name);
      else out.set(name, entry.nodeClaim);
    }
    return out;
  }

  private rememberDeleted(name: string): void {
    this.deletedNodeClaims.add(name);
    if (this.deletedNodeClaims.size > deletedNamesKept)
      this.deletedNodeClaims.delete(this.deletedNodeClaims.values().next().value as string);
  }

  private unindexNodeClaim(name: string): void {
    const old = this.nodeClaims.get(name);
    if (!old) return;
    const providerID = old.status?.providerID;
    if (providerID && this.nodeClaimByProviderID.get(providerID) === name) this.nodeClaimByProviderID.delete(providerID);
    this.nodeClaimsByNodePool.remove(nodePoolOf(old), name);
  }

  /** A NodePool's policy shapes how its nodes are read: their readers must derive them again. */
  /** An overlay may change what any node is worth to the simulation and the extender. */
  private everyNodeChanged(): void {
    for (const name of this.nodes.keys()) this.nodeChanged(name);
  }

  private nodePoolChanged(name: string): void {
    for (const claim of this.nodeClaimsOfNodePool(name)) this.nodeChanged(this.nodeByProviderID.get(claim.status?.providerID ?? ''));
  }

  private nodeChanged(nodeName: string | undefined): void {
    if (nodeName === undefined || nodeName === '') return;
    for (const listener of this.nodeListeners) listener(nodeName);
  }

  /** The Node behind a StateNode key (providerID, `node/<name>` or `nodeclaim/<name>`), if it has one. */
  private nodeNameOfKey(key: string): string | undefined {
    if (key.startsWith('node/')) return key.slice('node/'.length);
    if (key.startsWith('nodeclaim/')) return undefined;
    return this.nodeByProviderID.get(key);
  }

  private forgetMarks(key: string): void {
    this.markedForDeletion.delete(key);
    this.nominatedUntil.delete(key);
  }
}

/** A StateNode's key: the providerID once either side knows it, else the Node's or the NodeClaim's name. */
interface StateNodeIdentity {
  providerID: string | undefined;
  nodeName: string | undefined;
  name: string;
  key: string;
}
function stateNodeIdentity(node: V1Node | undefined, nodeClaim: NodeClaim | undefined): StateNodeIdentity {
  const providerID = node?.spec?.providerID || nodeClaim?.status?.providerID || undefined;
  const nodeName = node?.metadata?.name;
  const name = nodeName ?? nodeClaim?.metadata?.name ?? '';
  const key = providerID ?? (nodeName !== undefined ? `node/${nodeName}` : `nodeclaim/${name}`);
  return { providerID, nodeName, name, key };
}

/** Summed capacity and node count per NodePool (domain/nodepool/limits.ts); only managed nodes count, as upstream's limits do. */
export function nodePoolUsage(nodes: readonly StateNode[]): Record<string, NodePoolUsage> {
  const managed = nodes.filter((n) => n.managed);
  return usageByNodePool(
    managed.map((n) => ({ nodePool: n.nodePool, capacity: usageCapacity(n.node?.status?.capacity, n.nodeClaim?.status?.capacity) })),
  );
}
