/**
 * Keeps the template hash annotations current (upstream's nodepool hash controller): each NodePool carries its
 * `karpenter.sh/nodepool-hash` and `-version`, and NodeClaims stamped with another hash version (written by an
 * earlier release, whose hash covered other fields) are re-stamped rather than compared, so an upgrade that
 * changes what the hash covers does not mark every existing node drifted.
 */
import type { NodeClaim, NodePool } from '../../apis/index.js';
import { nodePoolHashAnnotations, restampedHashAnnotations } from '../../domain/disruption/index.js';
import { ignoreKubeNotFound, isKubeConflict, type Kube, Resources } from '../../kube/index.js';
import type { ClusterState } from '../../state/index.js';
import type { Clock } from '../../util/clock.js';
import { type Logger, silentLogger } from '../../util/logger.js';
import { reconcileEvery } from '../polling.js';
import type { Controller } from '../types.js';

export interface NodePoolHashControllerDeps {
  kube: Kube;
  state: ClusterState;
  clock: Clock;
  logger?: Logger;
  options?: { intervalMs?: number };
}

export interface NodePoolHashController extends Controller {
  /** One pass; resolves with the names of the NodePools and NodeClaims whose annotations were written. */
  reconcile(): Promise<string[]>;
}

const DefaultIntervalMs = 10_000;

async function patchAnnotations(
  deps: NodePoolHashControllerDeps,
  kind: typeof Resources.NodePool | typeof Resources.NodeClaim,
  object: NodePool | NodeClaim,
  annotations: Record<string, string>,
): Promise<boolean> {
  // The resourceVersion makes the write fail rather than re-stamp a NodeClaim that changed since it was read.
  const metadata = { annotations, resourceVersion: object.metadata?.resourceVersion };
  try {
    await deps.kube.patch(kind, { name: object.metadata?.name ?? '' }, { type: 'merge', body: { metadata } }).catch(ignoreKubeNotFound);
    return true;
  } catch (error) {
    if (isKubeConflict(error)) return false;
    throw error;
  }
}

function differs(current: Record<string, string> | undefined, wanted: Record<string, string>): boolean {
  return Object.entries(wanted).some(([k, v]) => current?.[k] !== v);
}

export function createNodePoolHashController(deps: NodePoolHashControllerDeps): NodePoolHashController {
  const logger = (deps.logger ?? silentLogger).child({ controller: 'nodepool.hash' });

  const reconcilePool = async (nodePool: NodePool, written: string[]): Promise<void> => {
    const name = nodePool.metadata?.name ?? '';
    for (const claim of deps.state.nodeClaimsOfNodePool(name)) {
      const annotations = claim.metadata?.deletionTimestamp ? undefined : restampedHashAnnotations(nodePool, claim);
      if (annotations && (await patchAnnotations(deps, Resources.NodeClaim, claim, annotations))) {
        logger.info('nodeclaim re-stamped with the current nodepool hash version', { nodeclaim: claim.metadata?.name, nodepool: name });
        written.push(claim.metadata?.name ?? '');
      }
    }
    const own = nodePoolHashAnnotations(nodePool);
    if (differs(nodePool.metadata?.annotations, own) && (await patchAnnotations(deps, Resources.NodePool, nodePool, own)))
      written.push(name);
  };

  const reconcile = async (): Promise<string[]> => {
    if (!deps.state.synced()) return [];
    const written: string[] = [];
    for (const nodePool of deps.state.nodePoolList()) {
      if (!nodePool.metadata?.deletionTimestamp) await reconcilePool(nodePool, written);
    }
    return written;
  };

  return {
    name: 'nodepool.hash',
    reconcile,
    start: (signal: AbortSignal) =>
      reconcileEvery(
        {
          clock: deps.clock,
          intervalMs: deps.options?.intervalMs ?? DefaultIntervalMs,
          logger,
          failure: 'stamping nodepool hashes failed; retrying',
        },
        reconcile,
        signal,
      ),
  };
}
