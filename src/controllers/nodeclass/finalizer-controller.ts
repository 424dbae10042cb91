/**
 * Keeps the in-use finalizer on the NodeClasses of the configured clouds (upstream's NodeClass termination
 * controller): added to every live one, removed from a deleted one once no NodeClaim references it. The
 * NodeClaims are read from the API, not the informer cache, before a removal: a NodeClaim created a moment
 * ago must still hold its NodeClass. Each write reads the NodeClass fresh and is guarded by its resourceVersion.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { FinalizerNodeClassInUse } from '../../apis/v1/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import type { NodeClassKind } from '../../cloudprovider/types.js';
import { decideNodeClassFinalizers, type NodeClassFinalizerAction, type NodeClassFinalizerView } from '../../domain/termination/index.js';
import { isKubeNotFound } from '../../kube/errors.js';
import { type ResourceKind, Resources } from '../../kube/resources.js';
import type { Kube } from '../../kube/types.js';
import type { ClusterState } from '../../state/cluster-state.js';
import type { Clock } from '../../util/clock.js';
import type { JsonPatchOperation } from '../../util/json-patch.js';
import { type Logger, silentLogger } from '../../util/logger.js';
import { resourceVersionTest, retryStale } from '../termination/object-operations.js';
import type { Controller } from '../types.js';
import { reconcileEvery } from '../polling.js';

export interface NodeClassFinalizerControllerDeps {
  kube: Kube;
  state: ClusterState;
  clock: Clock;
  /** The NodeClass kinds of the configured clouds (others are not this service's to hold). */
  kinds: readonly NodeClassKind[];
  logger?: Logger;
  options?: { intervalMs?: number };
}

export interface NodeClassFinalizerController extends Controller {
  /** One pass; resolves with the actions applied. */
  reconcile(): Promise<NodeClassFinalizerAction[]>;
}

const DefaultIntervalMs = 5_000;

function resourceOf(kind: string): ResourceKind | undefined {
  return Object.values(Resources).find((r) => r.kind === kind && r.group !== '');
}

function viewsOf(state: ClusterState, kinds: ReadonlySet<string>): NodeClassFinalizerView[] {
  return state
    .nodeClassList()
    .filter((e) => kinds.has(e.kind))
    .map((e) => {
      const metadata = (e.object as KubernetesObject).metadata;
      return { kind: e.kind, name: e.name, finalizers: metadata?.finalizers ?? [], deleting: Boolean(metadata?.deletionTimestamp) };
    });
}

/** Adds or removes the finalizer on a fresh read; false when the NodeClass is gone or already as wanted. */
async function applyOnce(kube: Kube, resource: ResourceKind, action: NodeClassFinalizerAction): Promise<boolean> {
  let object: KubernetesObject;
  try {
    object = await kube.get<KubernetesObject>(resource, { name: action.name });
  } catch (err) {
    if (isKubeNotFound(err)) return false;
    throw err;
  }
  const finalizers = object.metadata?.finalizers ?? [];
  const held = finalizers.includes(FinalizerNodeClassInUse);
  if (action.action === 'add' ? held || object.metadata?.deletionTimestamp : !held) return false;
  const value =
    action.action === 'add' ? [...finalizers, FinalizerNodeClassInUse] : finalizers.filter((f) => f !== FinalizerNodeClassInUse);
  const patch: JsonPatchOperation[] = [
    ...resourceVersionTest(object),
    { op: object.metadata?.finalizers ? 'replace' : 'add', path: '/metadata/finalizers', value },
  ];
  await kube.patch(resource, { name: action.name }, { type: 'json', body: patch });
  return true;
}

export function createNodeClassFinalizerController(deps: NodeClassFinalizerControllerDeps): NodeClassFinalizerController {
  const logger = (deps.logger ?? silentLogger).child({ controller: 'nodeclass.finalizer' });
  const kinds = new Set(deps.kinds.map((k) => k.kind));

  const reconcile = async (): Promise<NodeClassFinalizerAction[]> => {
    if (!deps.state.synced()) return [];
    const views = viewsOf(deps.state, kinds);
    const releasing = views.some((v) => v.deleting && v.finalizers.includes(FinalizerNodeClassInUse));
    const claims = releasing ? (await deps.kube.list<NodeClaim>(Resources.NodeClaim)).items : [];
    const references = claims.map((c) => ({ kind: c.spec.nodeClassRef.kind, name: c.spec.nodeClassRef.name }));
    const applied: NodeClassFinalizerAction[] = [];
    for (const action of decideNodeClassFinalizers(views, references, FinalizerNodeClassInUse)) {
      const resource = resourceOf(action.kind);
      if (!resource || !(await retryStale(() => applyOnce(deps.kube, resource, action)))) continue;
      if (action.action === 'remove')
        logger.info('nodeclass no longer used by any nodeclaim; released', { kind: action.kind, nodeClass: action.name });
      applied.push(action);
    }
    return applied;
  };

  return {
    name: 'nodeclass.finalizer',
    reconcile,
    start: (signal: AbortSignal) =>
      reconcileEvery(
        {
          clock: deps.clock,
          intervalMs: deps.options?.intervalMs ?? DefaultIntervalMs,
          logger,
          failure: 'updating nodeclass finalizers failed; retrying',
        },
        reconcile,
        signal,
      ),
  };
}
