/**
 * Node repair, behind the `NodeRepair` feature gate (upstream Karpenter's node.health controller): on each
 * pass, the NodeClaims whose Node held a condition of its cloud's repair policies past the toleration are
 * deleted with reason `unhealthy` and a termination timestamp of now (their pods are not waited for); the
 * pending pods they leave get a replacement from provisioning. The decision is `planRepairs`
 * (domain/repair); this controller reads, confirms on fresh objects, writes and reports.
 * It acts on nothing while ClusterState is not synced, and skips a node whose fresh read fails.
 */
import type { V1Node } from '@kubernetes/client-node';
import { DeletionReasons } from '../../apis/v1/deletion-reasons.js';
import { AnnotationNodeClaimTerminationTimestamp, LabelCapacityType, LabelNodePool } from '../../apis/v1/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import type { RepairPolicy } from '../../cloudprovider/types.js';
import { type HealthNode, planRepairs, type Repair, repairTerminationTimestamp, unhealthyCondition } from '../../domain/repair/index.js';
import type { EventRecorder } from '../../kube/events.js';
import { Resources } from '../../kube/resources.js';
import type { Kube } from '../../kube/types.js';
import type { Metrics } from '../../metrics/registry.js';
import type { StateNode } from '../../state/snapshot.js';
import type { ClusterState } from '../../state/cluster-state.js';
import type { Clock } from '../../util/clock.js';
import { type Logger, silentLogger } from '../../util/logger.js';
import { disruptedLabels, snakeCase } from '../disruption/disrupted-labels.js';
import { reconcileEvery } from '../polling.js';
import { nodeObject } from '../termination/termination-reporting.js';
import { deleteNodeClaimWithReason } from '../termination/object-operations.js';
import type { Controller } from '../types.js';

/** Between passes: a node is replaced at most this long after its toleration ran out. */
const DefaultIntervalMs = 10_000;
/** A repair the valve holds back is reported again after this long (upstream's dedupe timeout of the Event). */
const BlockedEventEveryMs = 15 * 60_000;

export interface NodeHealthControllerDeps {
  kube: Kube;
  state: ClusterState;
  cloudProvider: { repairPolicies(): RepairPolicy[] };
  clock: Clock;
  logger?: Logger;
  metrics?: Metrics;
  events: EventRecorder;
  options?: { intervalMs?: number };
}

export interface RepairReport {
  /** Why the pass did nothing (state not synced, no repair policy). */
  skipped?: string;
  /** NodeClaims deleted. */
  repaired: string[];
  /** Nodes whose repair the 20% valve holds back. */
  blocked: string[];
}

export interface NodeHealthController extends Controller {
  reconcileOnce(): Promise<RepairReport>;
}

function healthNodeOf(n: StateNode): HealthNode | undefined {
  if (!n.node) return undefined;
  return {
    name: n.node.metadata?.name ?? n.name,
    conditions: (n.node.status?.conditions ?? []) as HealthNode['conditions'],
    ...(n.nodePool === undefined ? {} : { nodePool: n.nodePool }),
    ...(n.nodeClaim?.metadata?.name === undefined ? {} : { nodeClaim: n.nodeClaim.metadata.name }),
    deleting: n.nodeClaim?.metadata?.deletionTimestamp !== undefined,
  };
}

export function createNodeHealthController(deps: NodeHealthControllerDeps): NodeHealthController {
  const logger = (deps.logger ?? silentLogger).child({ controller: 'node.health' });
  const blockedReportedAt = new Map<string, number>();

  /** Node and NodeClaim read fresh from the API server; undefined (and nothing deleted) when either read fails. */
  async function readFresh(repair: Repair): Promise<{ node: V1Node; nodeClaim: NodeClaim } | undefined> {
    try {
      const [node, nodeClaim] = await Promise.all([
        deps.kube.get<V1Node>(Resources.Node, { name: repair.node }),
        deps.kube.get<NodeClaim>(Resources.NodeClaim, { name: repair.nodeClaim }),
      ]);
      return { node, nodeClaim };
    } catch (error) {
      logger.warn('reading unhealthy node failed; not repairing it this pass', {
        node: repair.node,
        nodeClaim: repair.nodeClaim,
        error: error as Error,
      });
      return undefined;
    }
  }

  async function repair(r: Repair, policies: readonly RepairPolicy[]): Promise<boolean> {
    const fresh = await readFresh(r);
    if (!fresh || fresh.nodeClaim.metadata?.deletionTimestamp !== undefined) return false;
    const now = deps.clock.now();
    const condition = unhealthyCondition((fresh.node.status?.conditions ?? []) as HealthNode['conditions'], policies);
    if (!condition || now < condition.dueAt) return false; // recovered since the cache was read
    const annotations = fresh.nodeClaim.metadata?.annotations ?? {};
    const timestamp = repairTerminationTimestamp(annotations[AnnotationNodeClaimTerminationTimestamp], now);
    if (timestamp !== undefined) {
      const body = { metadata: { annotations: { [AnnotationNodeClaimTerminationTimestamp]: timestamp } } };
      await deps.kube.patch(Resources.NodeClaim, { name: r.nodeClaim }, { type: 'merge', body });
    }
    if (!(await deleteNodeClaimWithReason(deps.kube, fresh.nodeClaim, DeletionReasons.unhealthy))) return false;
    logger.info('deleting unhealthy node', { node: r.node, nodeClaim: r.nodeClaim, condition: `${condition.type}=${condition.status}` });
    const labels = fresh.node.metadata?.labels ?? {};
    deps.metrics?.nodeClaimsDisrupted.inc(disruptedLabels(DeletionReasons.unhealthy, fresh.nodeClaim, undefined, false));
    deps.metrics?.nodeClaimsUnhealthyDisrupted.inc({
      condition: snakeCase(condition.type),
      nodepool: labels[LabelNodePool] ?? '',
      capacity_type: labels[LabelCapacityType] ?? '',
      image_id: fresh.nodeClaim.status?.imageID ?? '',
    });
    return true;
  }

  function reportBlocked(node: V1Node | undefined, name: string, message: string, now: number): void {
    const last = blockedReportedAt.get(name);
    if (last !== undefined && now - last < BlockedEventEveryMs) return;
    blockedReportedAt.set(name, now);
    logger.info('node repair blocked', { node: name, message });
    const involvedObject = node ? nodeObject(node) : { apiVersion: 'v1', kind: 'Node', name };
    void deps.events.publish({ involvedObject, type: 'Warning', reason: 'NodeRepairBlocked', message });
  }

  async function reconcileOnce(): Promise<RepairReport> {
    if (!deps.state.synced()) return { skipped: 'cluster state not synced', repaired: [], blocked: [] };
    const policies = deps.cloudProvider.repairPolicies();
    if (policies.length === 0) return { skipped: 'no repair policy', repaired: [], blocked: [] };
    const snapshot = deps.state.snapshot();
    const nodes = snapshot.nodes.flatMap((n) => healthNodeOf(n) ?? []);
    const plan = planRepairs(nodes, policies, snapshot.takenAt);
    for (const b of plan.blocked) reportBlocked(deps.state.node(b.node), b.node, b.message, snapshot.takenAt);
    for (const name of blockedReportedAt.keys()) if (!plan.blocked.some((b) => b.node === name)) blockedReportedAt.delete(name);
    const repaired: string[] = [];
    for (const r of plan.repairs) {
      try {
        if (await repair(r, policies)) repaired.push(r.nodeClaim);
      } catch (error) {
        logger.warn('repairing node failed; retrying next pass', { node: r.node, nodeClaim: r.nodeClaim, error: error as Error });
      }
    }
    return { repaired, blocked: plan.blocked.map((b) => b.node) };
  }

  const loop = {
    clock: deps.clock,
    intervalMs: deps.options?.intervalMs ?? DefaultIntervalMs,
    logger,
    failure: 'node repair pass failed; retrying',
  };
  return {
    name: 'node.health',
    reconcileOnce,
    start: (signal) => reconcileEvery(loop, reconcileOnce, signal),
  };
}
