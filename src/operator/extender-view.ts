/** The extender's view of the cluster (ExtenderClusterView) backed by the informer-fed ClusterState. */
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import type { ResourceList } from '../domain/instancetypes/types.js';
import type { ExtenderClusterView, ExtenderNode, ExtenderNodeState } from '../domain/extender/index.js';
import { podsSchedulingRequests } from '../domain/pods/index.js';
import { addResources, parseResourceList } from '../domain/quantity/index.js';
import type { Taint } from '../domain/requirements/taints.js';
import type { ClusterState } from '../state/cluster-state.js';
import type { CatalogPriceBook } from './price-book.js';

function stateOf(node: V1Node, markedForDeletion: boolean): ExtenderNodeState {
  if (node.metadata?.deletionTimestamp) return 'terminating';
  return markedForDeletion ? 'disrupting' : 'ok';
}

/**
 * The view answers for every node of every filter/prioritize call (5,000 nodes, 50,000 pods: tens of milliseconds
 * when recomputed). State replaces an object on each update and never changes one in place, so what is derived
 * from a Pod or a Node is kept per object and dropped with it.
 */
export function clusterStateExtenderView(state: ClusterState, prices: CatalogPriceBook): ExtenderClusterView {
  const podRequests = new WeakMap<object, ResourceList>();
  const allocatable = new WeakMap<object, ResourceList>();
  const requestsOf = (pods: readonly V1Pod[]): ResourceList => {
    const parts: ResourceList[] = [];
    for (const pod of pods) {
      let known = podRequests.get(pod);
      if (!known) podRequests.set(pod, (known = podsSchedulingRequests([pod])));
      parts.push(known);
    }
    return addResources(...parts);
  };
  const allocatableOf = (node: V1Node): ResourceList => {
    let known = allocatable.get(node);
    if (!known) allocatable.set(node, (known = parseResourceList(node.status?.allocatable ?? {})));
    return known;
  };
  return {
    get(nodeName: string): ExtenderNode | undefined {
      const node = state.node(nodeName);
      if (!node) return undefined;
      const providerID = node.spec?.providerID;
      const claim = providerID ? state.nodeClaimByProvider(providerID) : undefined;
      const labels = node.metadata?.labels ?? {};
      return {
        labels,
        taints: (node.spec?.taints ?? []) as Taint[],
        allocatable: allocatableOf(node),
        requested: requestsOf(state.podsOnNode(nodeName)),
        pricePerHour: prices.hourlyForLabels(labels),
        state: stateOf(node, Boolean(claim?.metadata?.deletionTimestamp)),
      };
    },
  };
}
