/**
 * Keeps every NodePool's status (upstream's nodepool counter + readiness controllers): resources and node count
 * of its managed nodes, NodeClassReady and Ready. Writes the status subresource only when it changes, on a
 * modest period (state already holds everything it needs). A NodePool turning not Ready is logged with why:
 * provisioning skips it until it is Ready again.
 */
import { type NodePool, NodePoolConditionTypes } from '../../apis/v1/nodepool.js';
import { desiredNodePoolStatus, type NodeClassFacts, statusDiffers } from '../../domain/nodepool/index.js';
import { ignoreKubeNotFound, type Kube, Resources } from '../../kube/index.js';
import type { ClusterState } from '../../state/index.js';
import type { Clock } from '../../util/clock.js';
import { type Logger, silentLogger } from '../../util/logger.js';
import type { Controller } from '../types.js';
import { reconcileEvery } from '../polling.js';

export interface NodePoolStatusControllerDeps {
  kube: Kube;
  state: ClusterState;
  clock: Clock;
  logger?: Logger;
  options?: { intervalMs?: number };
}

export interface NodePoolStatusController extends Controller {
  /** One pass over every NodePool; resolves with the names whose status was written. */
  reconcile(): Promise<string[]>;
}

const DefaultIntervalMs = 5_000;

function nodeClassFacts(state: ClusterState, nodePool: NodePool): NodeClassFacts {
  const ref = nodePool.spec.template.spec.nodeClassRef;
  const entry = state.nodeClass(ref.kind, ref.name);
  if (!entry) return { found: false };
  const object = entry.object as {
    metadata?: { deletionTimestamp?: string };
    status?: { conditions?: { type: string; status: string; message?: string }[] };
  };
  const ready = object.status?.conditions?.find((c) => c.type === 'Ready');
  return {
    found: true,
    deleting: Boolean(object.metadata?.deletionTimestamp),
    ...(ready ? { ready: { status: ready.status, ...(ready.message ? { message: ready.message } : {}) } } : {}),
  };
}

export function createNodePoolStatusController(deps: NodePoolStatusControllerDeps): NodePoolStatusController {
  const logger = (deps.logger ?? silentLogger).child({ controller: 'nodepool.status' });

  const reconcile = async (): Promise<string[]> => {
    if (!deps.state.synced()) return [];
    const snapshot = deps.state.snapshot();
    const written: string[] = [];
    for (const nodePool of snapshot.nodePools) {
      const name = nodePool.metadata?.name ?? '';
      if (nodePool.metadata?.deletionTimestamp) continue;
      const desired = desiredNodePoolStatus({
        nodePool,
        nodeClass: nodeClassFacts(deps.state, nodePool),
        usage: snapshot.nodePoolUsage[name],
        now: deps.clock.now(),
      });
      if (!statusDiffers(nodePool.status, desired)) continue;
      const wasReady = nodePool.status?.conditions?.find((c) => c.type === NodePoolConditionTypes.Ready)?.status;
      const ready = desired.conditions?.find((c) => c.type === NodePoolConditionTypes.Ready);
      if (ready && ready.status !== wasReady) {
        if (ready.status === 'False')
          logger.warn('nodepool not ready; provisioning skips it', { nodepool: name, reason: ready.reason, detail: ready.message });
        else logger.info('nodepool ready', { nodepool: name });
      }
      // A merge patch merges maps: resources no node has any more are removed explicitly.
      const removed = Object.fromEntries(
        Object.keys(nodePool.status?.resources ?? {})
          .filter((k) => !(k in (desired.resources ?? {})))
          .map((k) => [k, null]),
      );
      const body = { status: { ...desired, resources: { ...removed, ...desired.resources } } };
      await deps.kube.patch(Resources.NodePool, { name }, { type: 'merge', body }, { status: true }).catch(ignoreKubeNotFound);
      written.push(name);
    }
    return written;
  };

  return {
    name: 'nodepool.status',
    reconcile,
    start: (signal: AbortSignal) =>
      reconcileEvery(
        {
          clock: deps.clock,
          intervalMs: deps.options?.intervalMs ?? DefaultIntervalMs,
          logger,
          failure: 'updating nodepool status failed; retrying',
        },
        reconcile,
        signal,
      ),
  };
}
