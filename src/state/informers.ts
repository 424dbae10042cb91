/**
 * Feeds ClusterState from one informer per kind (pods, nodes, NodePools, NodeClaims, the three NodeClass
 * kinds, DaemonSets, PDBs, NodeOverlays when their gate is on, and the resource.k8s.io/v1 kinds when the
 * DynamicResourceAllocation gate is). State counts as synced once every informer has listed once.
 */
import type { KubeConfig, KubernetesObject, V1DaemonSet, V1Node, V1Pod, V1PodDisruptionBudget } from '@kubernetes/client-node';
import type { NodeClaim, NodeOverlay, NodePool } from '../apis/index.js';
import { type InformerHandlers, ResourceInformer } from '../kube/informer.js';
import { type ResourceKind, Resources } from '../kube/resources.js';
import type { Kube } from '../kube/types.js';
import type { BackoffPolicy, RandomSource } from '../util/backoff.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/logger.js';
import { type ClusterState, DraKinds } from './cluster-state.js';
import type { NodeClassEntry } from './snapshot.js';

export interface ClusterStateInformerOptions {
  kubeConfig: KubeConfig;
  kube: Kube;
  clock: Clock;
  state: ClusterState;
  logger?: Logger;
  random?: RandomSource;
  restartBackoff?: Pick<BackoffPolicy, 'baseDelayMs' | 'maxDelayMs'>;
  /** Called with the resource plural on each informer restart after an error (a metric). */
  onRestart?: (resource: string) => void;
  /** Called after state took in an added, changed or deleted object (the metrics that count transitions). */
  onChange?: (kind: string, object: KubernetesObject, deleted: boolean) => void;
  /** Watch NodeOverlays too (the NodeOverlay feature gate: off, their CRD need not be installed). */
  nodeOverlays?: boolean;
  /** Watch ResourceClaims, ResourceClaimTemplates, DeviceClasses and ResourceSlices (the cluster must serve resource.k8s.io/v1). */
  dynamicResources?: boolean;
}

export interface ClusterStateInformers {
  /** Starts every informer; resolves once each made its first attempt (synced, or retrying). */
  start(): Promise<void>;
  synced(): boolean;
  /** Resolves when every informer has synced; rejects when `signal` aborts or the informers stop. */
  waitForSync(signal?: AbortSignal): Promise<void>;
  stop(): Promise<void>;
}

type Feed = { resource: ResourceKind; handlers: InformerHandlers<KubernetesObject> };

function feed<T extends KubernetesObject>(resource: ResourceKind, update: (o: T) => void, remove: (o: T) => void): Feed {
  const handlers: InformerHandlers<T> = { onAdd: update, onUpdate: update, onDelete: remove };
  return { resource, handlers: handlers as InformerHandlers<KubernetesObject> };
}

function nodeClassFeed(state: ClusterState, resource: ResourceKind): Feed {
  const kind = resource.kind;
  return feed<KubernetesObject>(
    resource,
    (o) => state.updateNodeClass(kind, o as NodeClassEntry['object']),
    (o) => state.deleteNodeClass(kind, o as NodeClassEntry['object']),
  );
}

function nodeOverlayFeed(state: ClusterState): Feed {
  return feed<KubernetesObject>(
    Resources.NodeOverlay,
    (o) => state.updateNodeOverlay(o as NodeOverlay),
    (o) => state.deleteNodeOverlay(o as NodeOverlay),
  );
}

function draFeeds(state: ClusterState): Feed[] {
  state.watchDynamicResources();
  return DraKinds.map((kind) =>
    feed<KubernetesObject>(
      Resources[kind],
      (o) => state.updateDraObject(kind, o),
      (o) => state.deleteDraObject(kind, o),
    ),
  );
}

function feeds(state: ClusterState, nodeOverlays: boolean, dynamicResources: boolean): Feed[] {
  return [
    ...(nodeOverlays ? [nodeOverlayFeed(state)] : []),
    ...(dynamicResources ? draFeeds(state) : []),
    feed<V1Pod>(
      Resources.Pod,
      (o) => state.updatePod(o),
      (o) => state.deletePod(o),
    ),
    feed<V1Node>(
      Resources.Node,
      (o) => state.updateNode(o),
      (o) => state.deleteNode(o),
    ),
    feed<KubernetesObject>(
      Resources.NodePool,
      (o) => state.updateNodePool(o as NodePool),
      (o) => state.deleteNodePool(o as NodePool),
    ),
    feed<KubernetesObject>(
      Resources.NodeClaim,
      (o) => state.updateNodeClaim(o as NodeClaim),
      (o) => state.deleteNodeClaim(o as NodeClaim),
    ),
    nodeClassFeed(state, Resources.OVHNodeClass),
    nodeClassFeed(state, Resources.ScalewayNodeClass),
    nodeClassFeed(state, Resources.OutscaleNodeClass),
    feed<V1DaemonSet>(
      Resources.DaemonSet,
      (o) => state.updateDaemonSet(o),
      (o) => state.deleteDaemonSet(o),
    ),
    feed<V1PodDisruptionBudget>(
      Resources.PodDisruptionBudget,
      (o) => state.updatePodDisruptionBudget(o),
      (o) => state.deletePodDisruptionBudget(o),
    ),
  ];
}

/** The feed's handlers, each followed by `onChange`. */
function observed(feed: Feed, onChange: ClusterStateInformerOptions['onChange']): Feed {
  if (!onChange) return feed;
  const kind = feed.resource.kind;
  const { onAdd, onUpdate, onDelete } = feed.handlers;
  const then =
    (handler: ((o: KubernetesObject) => void) | undefined, deleted: boolean) =>
    (o: KubernetesObject): void => {
      handler?.(o);
      onChange(kind, o, deleted);
    };
  return {
    resource: feed.resource,
    handlers: { onAdd: then(onAdd, false), onUpdate: then(onUpdate, false), onDelete: then(onDelete, true) },
  };
}

export function createClusterStateInformers(options: ClusterStateInformerOptions): ClusterStateInformers {
  const informers = feeds(options.state, options.nodeOverlays ?? false, options.dynamicResources ?? false).map((f) => {
    const { resource, handlers } = observed(f, options.onChange);
    const informer = new ResourceInformer<KubernetesObject>({
      kubeConfig: options.kubeConfig,
      kube: options.kube,
      resource,
      clock: options.clock,
      logger: options.logger,
      random: options.random,
      restartBackoff: options.restartBackoff,
      onRestart: () => options.onRestart?.(resource.plural),
    });
    informer.on(handlers);
    return informer;
  });
  const synced = (): boolean => informers.every((i) => i.hasSynced());
  options.state.setSyncedSource(synced);
  return {
    start: async () => {
      await Promise.all(informers.map((i) => i.start()));
    },
    synced,
    waitForSync: async (signal) => {
      await Promise.all(informers.map((i) => i.waitForSync(signal)));
    },
    stop: async () => {
      await Promise.all(informers.map((i) => i.stop()));
    },
  };
}
