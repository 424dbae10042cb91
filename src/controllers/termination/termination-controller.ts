/**
 * Termination (Karpenter's node termination + NodeClaim lifecycle finalizer): a NodeClaim with a
 * deletionTimestamp and the `karpenter.sh/termination` finalizer gets its Node tainted
 * `karpenter.sh/disrupted:NoSchedule`, drained through the Eviction API in upstream's order, its instance
 * deleted until the cloud says NodeClaimNotFound, and only then the Node and NodeClaim finalizers go.
 * A cloud error keeps the finalizer and retries with backoff, so an instance is never forgotten.
 * A Node deleted directly (kubectl delete node) has its NodeClaim deleted with reason `user`.
 *
 * Work is level-triggered: every pass re-derives what to do from ClusterState, so a restart mid-way resumes.
 */
import type { V1Node } from '@kubernetes/client-node';
import { FinalizerTermination } from '../../apis/v1/labels.js';
import { DeletionReasons } from '../../apis/v1/deletion-reasons.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import type { CloudProvider } from '../../cloudprovider/types.js';
import type { EventRecorder } from '../../kube/events.js';
import type { Kube } from '../../kube/types.js';
import type { Metrics } from '../../metrics/registry.js';
import type { ClusterState } from '../../state/cluster-state.js';
import type { BackoffPolicy, RandomSource } from '../../util/backoff.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/logger.js';
import type { Controller } from '../types.js';
import { NodeClaimTerminator } from './nodeclaim-terminator.js';
import { deleteNodeClaimWithReason, removeTerminationFinalizer, taintDisrupted } from './object-operations.js';
import { Resources } from '../../kube/resources.js';
import { drainNode } from './node-drainer.js';

export interface TerminationControllerOptions {
  /** Time between passes; default 1 s. */
  pollIntervalMs?: number;
  /** Backoff between failed cloud deletes of one NodeClaim; default 1 s doubling to 5 min. */
  cloudDeleteBackoff?: Pick<BackoffPolicy, 'baseDelayMs' | 'maxDelayMs'>;
  /** NodeClaims terminated in parallel; default 32. */
  concurrency?: number;
}

export interface TerminationControllerDeps {
  kube: Kube;
  state: ClusterState;
  cloudProvider: CloudProvider;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  events: EventRecorder;
  /** Jitter source for backoff; the composition root passes Math.random. */
  random: RandomSource;
  options?: TerminationControllerOptions;
}

export interface TerminationController extends Controller {
  /** One pass over every terminating NodeClaim and Node (what `start` repeats). */
  reconcileOnce(): Promise<void>;
}

function isTerminatingWithFinalizer(object: { metadata?: { deletionTimestamp?: unknown; finalizers?: string[] } } | undefined): boolean {
  const meta = object?.metadata;
  return meta?.deletionTimestamp !== undefined && meta.deletionTimestamp !== null && (meta.finalizers ?? []).includes(FinalizerTermination);
}

async function forEachBounded<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

export function createTerminationController(deps: TerminationControllerDeps): TerminationController {
  const logger = deps.logger.child({ controller: 'termination' });
  const terminator = new NodeClaimTerminator({ ...deps, logger });
  const concurrency = deps.options?.concurrency ?? 32;

  async function reconcileOnce(): Promise<void> {
    if (!deps.state.synced()) return;
    const claims: NodeClaim[] = [];
    const orphanNodes: V1Node[] = [];
    const directlyDeletedNodes: Array<{ node: V1Node; nodeClaim: NodeClaim }> = [];
    for (const stateNode of deps.state.stateNodes()) {
      if (isTerminatingWithFinalizer(stateNode.nodeClaim)) claims.push(stateNode.nodeClaim as NodeClaim);
      else if (stateNode.node && isTerminatingWithFinalizer(stateNode.node)) {
        if (stateNode.nodeClaim) directlyDeletedNodes.push({ node: stateNode.node, nodeClaim: stateNode.nodeClaim });
        else orphanNodes.push(stateNode.node);
      }
    }
    terminator.forgetAllBut(new Set(claims.map((c) => c.metadata?.name ?? '')));
    await forEachBounded(claims, concurrency, (claim) => guarded(claim.metadata?.name ?? '', () => terminator.reconcile(claim)));
    await forEachBounded(directlyDeletedNodes, concurrency, ({ node, nodeClaim }) =>
      guarded(node.metadata?.name ?? '', async () => {
        logger.info('node deleted directly, deleting its nodeclaim', {
          node: node.metadata?.name,
          nodeClaim: nodeClaim.metadata?.name,
          reason: DeletionReasons.user,
        });
        await deleteNodeClaimWithReason(deps.kube, nodeClaim, DeletionReasons.user);
      }),
    );
    await forEachBounded(orphanNodes, concurrency, (node) => guarded(node.metadata?.name ?? '', () => finishUnmanagedNode(node)));
  }

  /** A Node we put our finalizer on but no NodeClaim owns: drain it, then let it go (no instance to delete). */
  async function finishUnmanagedNode(node: V1Node): Promise<void> {
    const name = node.metadata?.name ?? '';
    if (!(await taintDisrupted(deps.kube, name))) return;
    const drained = await drainNode({ ...deps, logger }, node, undefined);
    if (drained) await removeTerminationFinalizer(deps.kube, Resources.Node, name);
  }

  async function guarded(name: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      logger.warn('terminating, retrying on the next pass', { object: name, error });
    }
  }

  return {
    name: 'termination',
    reconcileOnce,
    async start(signal: AbortSignal): Promise<void> {
      const interval = deps.options?.pollIntervalMs ?? 1_000;
      while (!signal.aborted) {
        await reconcileOnce();
        await deps.clock.sleep(interval, signal).catch(() => undefined);
      }
    },
  };
}
