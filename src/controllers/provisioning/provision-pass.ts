/**
 * One provisioning pass (Karpenter's `Provisioner.Schedule` + `CreateNodeClaims`): snapshot the cluster,
 * simulate scheduling of every pending pod onto existing and in-flight capacity and new NodeClaims, then
 * create those NodeClaims in parallel — each one's NodePool limits reserved before its create — nominate
 * pods, and write Events for the pods that cannot be placed.
 */
import { randomUUID } from 'node:crypto';
import type { V1Pod } from '@kubernetes/client-node';
import type { NodeClaim, NodePool } from '../../apis/index.js';
import { isKubeNotFound } from '../../kube/errors.js';
import { Resources } from '../../kube/resources.js';
import type { CloudProvider } from '../../cloudprovider/types.js';
import type { InstanceType } from '../../domain/instancetypes/types.js';
import { exceededLimits, remainingLimits, usageAsResourceList } from '../../domain/nodepool/index.js';
import {
  displacedPods,
  heldNominations,
  ignoredPodReason,
  type LimitLedger,
  type NominationTarget,
  nodeClaimFromDecision,
  nominationsOf,
} from '../../domain/provisioning/index.js';
import { podKey } from '../../domain/pods/index.js';
import { solve } from '../../domain/scheduling/index.js';
import { daemonSetPod } from '../../domain/workloads/index.js';
import type { EventRecorder } from '../../kube/events.js';
import type { Kube } from '../../kube/types.js';
import type { Metrics } from '../../metrics/registry.js';
import type { ClusterSnapshot, ClusterState } from '../../state/index.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/logger.js';
import { publishFailedScheduling, publishNominated } from './pod-events.js';
import { existingNodesOf, type InFlightClaim, nodePoolLimits, schedulingNodePool, unseenInFlight } from './scheduling-input.js';
import type { ExistingNode, PlannedNodeClaim, SchedulingNodePool } from './scheduling-types.js';

export interface ProvisionPassDeps {
  kube: Kube;
  state: ClusterState;
  cloudProvider: CloudProvider;
  clock: Clock;
  logger: Logger;
  metrics?: Metrics;
  events?: EventRecorder;
  ledger: LimitLedger;
  inFlight: Map<string, InFlightClaim>;
  /** Pod key → the NodeClaim a pass placed it on (held while the pod waits and the claim stays: domain/provisioning/nominations.ts). */
  nominations: Map<string, string>;
  createConcurrency: number;
  onNodeClaimCreated?: (nodeClaim: NodeClaim) => void;
}

export interface ProvisioningResult {
  /** Why nothing was attempted, when nothing was. */
  skipped?: 'not-synced' | 'no-pending-pods';
  created: string[];
  /** pod key → node or NodeClaim it should land on. */
  nominated: Record<string, string>;
  unschedulable: { pod: string; reason: string }[];
  /** NodeClaims planned but not created: their NodePool's limits would be exceeded, or the create failed. */
  failed: { nodePool: string; pods: string[]; reason: string }[];
}

const emptyResult = (skipped?: ProvisioningResult['skipped']): ProvisioningResult => ({
  ...(skipped ? { skipped } : {}),
  created: [],
  nominated: {},
  unschedulable: [],
  failed: [],
});

interface PoolContext {
  nodePool: NodePool;
  types: Map<string, InstanceType>;
}

/** What one pass's creates share. */
interface PassContext {
  pools: ReadonlyMap<string, PoolContext>;
  /** NodeClaim names the pass's snapshot shows. */
  seen: ReadonlySet<string>;
  podsByKey: ReadonlyMap<string, V1Pod>;
  snapshot: ClusterSnapshot;
}

export async function provisionPass(deps: ProvisionPassDeps): Promise<ProvisioningResult> {
  if (!deps.state.synced()) return emptyResult('not-synced');
  const snapshot = deps.state.snapshot();
  // Pending pods, and the pods of nodes being deleted: their new capacity launches while the node drains.
  const waiting = [...snapshot.pendingPods, ...displacedPods(snapshot.nodes)];
  // DRA objects are in the snapshot when they are watched (the DynamicResourceAllocation gate).
  const pods = waiting.filter((p) => ignoredPodReason(p, snapshot.dra !== undefined) === undefined);
  deps.metrics?.schedulerIgnoredPods.set(waiting.length - pods.length);
  if (pods.length === 0) {
    // Nothing waits: the pods an earlier pass could not place are gone or placed.
    deps.metrics?.schedulerUnschedulablePods.set({ controller: 'provisioner' }, 0);
    return emptyResult('no-pending-pods');
  }
  // Upstream's queue depth: the pass's pods wait from here (instance types, claims) until the solve placed them.
  const queue = { controller: 'provisioner', scheduling_id: randomUUID() };
  deps.metrics?.schedulerQueueDepth.reset();
  deps.metrics?.schedulerQueueDepth.set(queue, pods.length);
  const pools = await instanceTypesByPool(deps, snapshot.nodePools);
  const seen = await observeClaims(deps, snapshot);
  const allTypes = new Map<string, InstanceType>();
  for (const p of pools.values()) for (const [name, t] of p.types) allTypes.set(name, t);
  const typeNamed = (name: string): InstanceType | undefined => allTypes.get(name);
  const existingNodes: ExistingNode[] = [...existingNodesOf(snapshot.nodes, typeNamed), ...unseenInFlight(deps.inFlight, seen, typeNamed)];
  const schedulingPools = [...pools.values()].flatMap((p) => schedulingPoolOf(deps, snapshot, p, seen) ?? []);
  const podsByKey = new Map(pods.map((p) => [podKey(p), p]));
  const targets = nominationTargets(deps, snapshot, seen);
  const held = heldNominations(deps.nominations, new Set(podsByKey.keys()), targets);
  deps.nominations.clear();
  for (const [pod, nodeClaim] of held.kept) deps.nominations.set(pod, nodeClaim);
  const started = performance.now();
  const result = solve({
    pods,
    existingNodes,
    nodePools: schedulingPools,
    daemonSets: snapshot.daemonSets.map(daemonSetPod),
    nominations: held.forSolve,
    ...(snapshot.dra ? { dra: snapshot.dra } : {}),
  });
  deps.metrics?.schedulingDuration.observe({ controller: 'provisioner' }, (performance.now() - started) / 1000);
  deps.metrics?.schedulerUnschedulablePods.set({ controller: 'provisioner' }, result.unschedulable.length);
  deps.metrics?.schedulerQueueDepth.set(queue, 0);

  const outcome = emptyResult();
  for (const [pod, nodeClaim] of nominationsOf(result.existingNodeAssignments, targets)) deps.nominations.set(pod, nodeClaim);
  nominateExisting(deps, snapshot, result.existingNodeAssignments, podsByKey, outcome);
  await createClaims(deps, result.newNodeClaims, { pools, seen, podsByKey, snapshot }, outcome);
  for (const u of result.unschedulable) {
    outcome.unschedulable.push(u);
    const pod = podsByKey.get(u.pod);
    if (pod) void publishFailedScheduling(deps.events, pod, u.reason);
  }
  if (outcome.created.length > 0 || outcome.unschedulable.length > 0) {
    deps.logger.info('provisioned', {
      pods: snapshot.pendingPods.length,
      displacedPods: pods.length - snapshot.pendingPods.length,
      nodeClaims: outcome.created,
      unschedulable: outcome.unschedulable.length,
      failed: outcome.failed.length,
    });
  }
  return outcome;
}

async function instanceTypesByPool(deps: ProvisionPassDeps, nodePools: readonly NodePool[]): Promise<Map<string, PoolContext>> {
  const out = new Map<string, PoolContext>();
  await Promise.all(
    nodePools.map(async (nodePool) => {
      const name = nodePool.metadata?.name ?? '';
      try {
        const types = await deps.cloudProvider.getInstanceTypes(nodePool);
        out.set(name, { nodePool, types: new Map(types.map((t) => [t.name, t])) });
      } catch (error) {
        deps.logger.warn('getting instance types failed; nodepool skipped this batch', { nodepool: name, error: error as Error });
      }
    }),
  );
  return out;
}

/** The NodeClaims this pass may place pods on, by the name the simulation knows them under. */
function nominationTargets(deps: ProvisionPassDeps, snapshot: ClusterSnapshot, seen: ReadonlySet<string>): NominationTarget[] {
  const shown = snapshot.nodes.flatMap((n) =>
    n.nodeClaim ? [{ name: n.name, nodeClaim: n.nodeClaim.metadata?.name ?? '', markedForDeletion: n.markedForDeletion }] : [],
  );
  const unseen = [...deps.inFlight.keys()]
    .filter((name) => !seen.has(name))
    .map((name) => ({ name, nodeClaim: name, markedForDeletion: false }));
  return [...shown, ...unseen];
}

function forgetClaim(deps: ProvisionPassDeps, name: string): void {
  deps.inFlight.delete(name);
  deps.ledger.releaseNodeClaim(name);
}

/** Settles reservations state now accounts for; returns the NodeClaim names state shows. */
async function observeClaims(deps: ProvisionPassDeps, snapshot: ClusterSnapshot): Promise<Set<string>> {
  const observed = snapshot.nodes.flatMap((n) =>
    n.nodeClaim ? [{ name: n.nodeClaim.metadata?.name ?? '', hasCapacity: n.nodeClaim.status?.capacity !== undefined }] : [],
  );
  const seen = new Set(observed.map((o) => o.name));
  const unseen: string[] = [];
  for (const [name, claim] of deps.inFlight) {
    if (seen.has(name)) claim.seen = true;
    else if (claim.seen)
      forgetClaim(deps, name); // shown once, gone now: deleted before it launched
    else unseen.push(name);
  }
  // Never shown: the cache lags, or it was deleted at once (insufficient capacity). Ask the API server.
  await Promise.all(
    unseen.map(async (name) => {
      try {
        await deps.kube.get(Resources.NodeClaim, { name });
      } catch (error) {
        if (isKubeNotFound(error)) forgetClaim(deps, name);
      }
    }),
  );
  deps.ledger.reconcile(observed, snapshot.takenAt);
  const open = deps.ledger.nodeClaimNames();
  for (const name of deps.inFlight.keys()) if (!open.has(name)) deps.inFlight.delete(name);
  return seen;
}

function schedulingPoolOf(
  deps: ProvisionPassDeps,
  snapshot: ClusterSnapshot,
  pool: PoolContext,
  seen: ReadonlySet<string>,
): SchedulingNodePool | undefined {
  const name = pool.nodePool.metadata?.name ?? '';
  const usage = deps.ledger.effectiveUsage(name, snapshot.nodePoolUsage[name], seen);
  return schedulingNodePool(pool.nodePool, [...pool.types.values()], usageAsResourceList(usage));
}

function nominateExisting(
  deps: ProvisionPassDeps,
  snapshot: ClusterSnapshot,
  assignments: readonly { node: string; pods: string[] }[],
  podsByKey: ReadonlyMap<string, V1Pod>,
  outcome: ProvisioningResult,
): void {
  const keyByName = new Map(snapshot.nodes.map((n) => [n.name, n]));
  for (const a of assignments) {
    const stateNode = keyByName.get(a.node);
    if (stateNode) deps.state.nominate(stateNode.key);
    const target = stateNode?.node ? `node/${a.node}` : `nodeclaim/${a.node}`;
    for (const key of a.pods) {
      outcome.nominated[key] = a.node;
      const pod = podsByKey.get(key);
      if (pod) void publishNominated(deps.events, pod, target);
    }
  }
}

async function createClaims(
  deps: ProvisionPassDeps,
  planned: readonly PlannedNodeClaim[],
  pass: PassContext,
  outcome: ProvisioningResult,
): Promise<void> {
  const queue = [...planned];
  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next; next = queue.shift()) await createOne(deps, next, pass, outcome);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(deps.createConcurrency, queue.length)) }, worker));
}

async function createOne(
  deps: ProvisionPassDeps,
  planned: PlannedNodeClaim,
  pass: PassContext,
  outcome: ProvisioningResult,
): Promise<void> {
  const { podsByKey } = pass;
  const pool = pass.pools.get(planned.nodePool);
  if (!pool) return;
  const capacity = pool.types.get(planned.instanceType)?.capacity ?? planned.allocatable;
  // Check and reserve with no await in between: a concurrent pass sees this reservation.
  const usage = deps.ledger.effectiveUsage(planned.nodePool, pass.snapshot.nodePoolUsage[planned.nodePool], pass.seen);
  const exceeded = exceededLimits(remainingLimits(nodePoolLimits(pool.nodePool), usageAsResourceList(usage)), capacity);
  if (exceeded.length > 0) {
    failClaim(
      deps,
      planned,
      podsByKey,
      outcome,
      `all available instance types exceed limits for nodepool: "${planned.nodePool}" (${exceeded.join(', ')})`,
    );
    return;
  }
  const id = deps.ledger.nextId();
  deps.ledger.reserve({ id, nodePool: planned.nodePool, resources: capacity, reservedAt: deps.clock.now() });
  try {
    const created = await deps.kube.create<NodeClaim>(Resources.NodeClaim, nodeClaimFromDecision(planned, pool.nodePool));
    deps.state.recordCreatedNodeClaim(created);
    const name = created.metadata?.name ?? '';
    deps.ledger.nameReservation(id, name);
    deps.inFlight.set(name, { name, nodePool: planned.nodePool, claim: created });
    outcome.created.push(name);
    deps.metrics?.nodeClaimsCreated.inc({ reason: 'provisioned', nodepool: planned.nodePool, min_values_relaxed: 'false' });
    deps.onNodeClaimCreated?.(created);
    for (const key of planned.pods) {
      outcome.nominated[key] = name;
      deps.nominations.set(key, name);
      const pod = podsByKey.get(key);
      if (pod) void publishNominated(deps.events, pod, `nodeclaim/${name}`);
    }
  } catch (error) {
    deps.ledger.release(id);
    deps.logger.error('creating nodeclaim failed', { nodepool: planned.nodePool, error: error as Error });
    failClaim(deps, planned, podsByKey, outcome, `creating nodeclaim: ${(error as Error).message}`);
  }
}

function failClaim(
  deps: ProvisionPassDeps,
  planned: PlannedNodeClaim,
  podsByKey: ReadonlyMap<string, V1Pod>,
  outcome: ProvisioningResult,
  reason: string,
): void {
  outcome.failed.push({ nodePool: planned.nodePool, pods: planned.pods, reason });
  for (const key of planned.pods) {
    const pod = podsByKey.get(key);
    if (pod) void publishFailedScheduling(deps.events, pod, reason);
  }
}
