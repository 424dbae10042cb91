/**
 * Keeps every NodeOverlay's ValidationSucceeded and Ready conditions (upstream's nodeoverlay controller): the
 * overlays are resolved over the instance types of every NodePool, as the simulation applies them, and each
 * status is written only when it changes. Runs with the NodeOverlay feature gate.
 */
import type { NodeOverlay } from '../../apis/v1alpha1/nodeoverlay.js';
import type { CloudProvider } from '../../cloudprovider/types.js';
import { type NodeOverlayLike, overlayTargets, type OverlayTarget, resolveOverlays } from '../../domain/nodeoverlay/apply.js';
import { conditionsDiffer, nodeOverlayConditions } from '../../domain/nodeoverlay/status.js';
import { ignoreKubeNotFound, type Kube, Resources } from '../../kube/index.js';
import type { ClusterState } from '../../state/index.js';
import type { Clock } from '../../util/clock.js';
import { type Logger, silentLogger } from '../../util/logger.js';
import { reconcileEvery } from '../polling.js';
import type { Controller } from '../types.js';

export interface NodeOverlayStatusControllerDeps {
  kube: Kube;
  state: ClusterState;
  cloudProvider: Pick<CloudProvider, 'getInstanceTypes'>;
  clock: Clock;
  logger?: Logger;
  options?: { intervalMs?: number };
}

export interface NodeOverlayStatusController extends Controller {
  /** One pass over every NodeOverlay; resolves with the names whose status was written. */
  reconcile(): Promise<string[]>;
}

const DefaultIntervalMs = 5_000;

async function clusterTargets(deps: NodeOverlayStatusControllerDeps, logger: Logger): Promise<OverlayTarget[] | undefined> {
  const targets: OverlayTarget[] = [];
  for (const pool of deps.state.nodePoolList()) {
    try {
      const types = await deps.cloudProvider.getInstanceTypes(pool);
      targets.push(...overlayTargets(types, { name: pool.metadata?.name ?? '', labels: pool.spec.template.metadata?.labels ?? {} }));
    } catch (error) {
      // A conflict judged without one pool's types could be missed: the statuses wait for the next pass.
      logger.warn('getting instance types failed; nodeoverlay statuses not updated this pass', { nodepool: pool.metadata?.name, error });
      return undefined;
    }
  }
  return targets;
}

export function createNodeOverlayStatusController(deps: NodeOverlayStatusControllerDeps): NodeOverlayStatusController {
  const logger = (deps.logger ?? silentLogger).child({ controller: 'nodeoverlay.status' });

  const reconcile = async (): Promise<string[]> => {
    if (!deps.state.synced()) return [];
    const overlays: NodeOverlay[] = deps.state.nodeOverlayList();
    if (overlays.length === 0) return [];
    const targets = await clusterTargets(deps, logger);
    if (!targets) return [];
    const resolution = resolveOverlays(overlays as NodeOverlayLike[], targets);
    const written: string[] = [];
    for (const overlay of overlays) {
      const name = overlay.metadata?.name ?? '';
      const conditions = nodeOverlayConditions(name, overlay.status?.conditions, resolution, deps.clock.now());
      if (!conditionsDiffer(overlay.status?.conditions, conditions)) continue;
      const invalid = conditions.find((c) => c.status === 'False');
      if (invalid) logger.warn('nodeoverlay not applied', { nodeoverlay: name, reason: invalid.reason, message: invalid.message });
      const body = { status: { conditions } };
      await deps.kube.patch(Resources.NodeOverlay, { name }, { type: 'merge', body }, { status: true }).catch(ignoreKubeNotFound);
      written.push(name);
    }
    return written;
  };

  return {
    name: 'nodeoverlay.status',
    reconcile,
    start: (signal: AbortSignal) =>
      reconcileEvery(
        {
          clock: deps.clock,
          intervalMs: deps.options?.intervalMs ?? DefaultIntervalMs,
          logger,
          failure: 'updating nodeoverlay status failed; retrying',
        },
        reconcile,
        signal,
      ),
  };
}
