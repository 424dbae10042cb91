/**
 * Where the provisioner hears of pods that became pending. ClusterState keeps no change feed, so the
 * provisioner takes a source: in `run`, a pod informer (`createPendingPodInformer`); in tests, anything
 * that calls the handler. The extender's signal goes through `trigger` instead.
 */
import type { KubeConfig, V1Pod } from '@kubernetes/client-node';
import { ResourceInformer } from '../../kube/informer.js';
import { Resources } from '../../kube/resources.js';
import type { Kube } from '../../kube/types.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/logger.js';

export interface PendingPodSource {
  /** Calls `onPod` for every pod added or changed; returns the unsubscribe function. */
  subscribe(onPod: (pod: V1Pod) => void): () => void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface PendingPodInformerOptions {
  kubeConfig: KubeConfig;
  kube: Kube;
  clock: Clock;
  logger?: Logger;
}

/**
 * A pod informer as a PendingPodSource: its own watch, on unbound pods only (`spec.nodeName=`, as upstream lists
 * pending pods), so it never holds a second copy of every pod ClusterState already caches.
 */
export function createPendingPodInformer(options: PendingPodInformerOptions): PendingPodSource {
  const informer = new ResourceInformer<V1Pod>({ ...options, resource: Resources.Pod, fieldSelector: 'spec.nodeName=' });
  const handlers = new Set<(pod: V1Pod) => void>();
  const dispatch = (pod: V1Pod): void => {
    for (const h of handlers) h(pod);
  };
  informer.on({ onAdd: dispatch, onUpdate: dispatch });
  return {
    subscribe(onPod) {
      handlers.add(onPod);
      return () => handlers.delete(onPod);
    },
    start: () => informer.start(),
    stop: () => informer.stop(),
  };
}
