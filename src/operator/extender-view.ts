/** The extender's view of the cluster (ExtenderClusterView) backed by the informer-fed ClusterState. */
import type { V1Node } from '@kubernetes/client-node';
import type { ExtenderClusterView, ExtenderNode, ExtenderNodeState } from '../domain/extender/index.js';
import { podsSchedulingRequests } from '../domain/pods/index.js';
import { parseResourceList } from '../domain/quantity/index.js';
import type { Taint } from '../domain/requirements/taints.js';
import type { ClusterState } from '../state/cluster-state.js';
import type { CatalogPriceBook } from './price-book.js';

function stateOf(node: V1Node, markedForDeletion: boolean): ExtenderNodeState {
  if (node.metadata?.deletionTimestamp) return 'terminating';
  return markedForDeletion ? 'disrupting' : 'ok';
}

export function clusterStateExtenderView(state: ClusterState, prices: CatalogPriceBook): ExtenderClusterView {
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
        allocatable: parseResourceList(node.status?.allocatable ?? {}),
        requested: podsSchedulingRequests(state.podsOnNode(nodeName)),
        pricePerHour: prices.hourlyForLabels(labels),
        state: stateOf(node, Boolean(claim?.metadata?.deletionTimestamp)),
      };
    },
  };
}
