/** Cluster state: the informer-fed view of the cluster and its plain-data snapshot. */
export { ClusterState, nodePoolUsage, type ClusterStateOptions } from './cluster-state.js';
export { createClusterStateInformers, type ClusterStateInformerOptions, type ClusterStateInformers } from './informers.js';
export type { ClusterSnapshot, NodeClassEntry, NodePoolUsage, StateNode } from './snapshot.js';
export { objectKey, nodePoolOf } from './object-keys.js';
