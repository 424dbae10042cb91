/** The extender's view of the cluster (ExtenderClusterView) backed by the informer-fed ClusterState. */
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { AnnotationDoNotDisrupt, hasDisruptedTaint, LabelNodePool, type NodeClaim, NodeClaimConditionTypes } from '../apis/index.js';
import { allowsUnderutilizedConsolidation } from '../domain/disruption/index.js';
import type { ExtenderClusterView, ExtenderNode, ExtenderNodeState } from '../domain/extender/index.js';
import type { ResourceList } from '../domain/instancetypes/types.js';
import { podSchedulingRequests } from '../domain/pods/index.js';
import { isConditionTrue, isTerminal } from '../domain/provisioning/index.js';
import { addResources, parseResourceList } from '../domain/quantity/index.js';
import type { Taint } from '../domain/requirements/taints.js';
import type { ClusterState } from '../state/cluster-state.js';
import type { CatalogPriceBook } from './price-book.js';

/**
 * The view answers for every node of every filter/prioritize call, inside the scheduler's cycle (5,000 nodes
 * per call). Each node's answer is derived once and kept until ClusterState reports a change to that node (the
 * Node, its NodeClaim, a pod bound to it, a deletion mark, its disruption outlook, its NodePool), as upstream's
 * StateNode keeps its requests up to date instead of summing pods per question.
 */
export function clusterStateExtenderView(state: ClusterState, prices: CatalogPriceBook): ExtenderClusterView {
  const known = new Map<string, ExtenderNode>();
  // A pod's requests do not change while the object stays the same (ClusterState replaces objects on update).
  const podRequests = new WeakMap<V1Pod, ResourceList>();
  state.onNodeChange((name) => known.delete(name));

  const requestsOf = (pod: V1Pod): ResourceList => {
    let requests = podRequests.get(pod);
    if (!requests) podRequests.set(pod, (requests = safely(() => podSchedulingRequests(pod))));
    return requests;
  };

  const derive = (node: V1Node, name: string): ExtenderNode => {
    const labels = node.metadata?.labels ?? {};
    return {
      labels,
      taints: (node.spec?.taints ?? []) as Taint[],
      allocatable: safely(() => parseResourceList(node.status?.allocatable ?? {})),
      requested: addResources(...state.podsOnNode(name).filter((p) => !isTerminal(p)).map(requestsOf)),
      pricePerHour: prices.hourlyForLabels(labels),
      state: stateOf(state, node, name),
    };
  };

  return {
    get(nodeName: string): ExtenderNode | undefined {
      const cached = known.get(nodeName);
      if (cached) return cached;
      const node = state.node(nodeName);
      if (!node) return undefined;
      const derived = derive(node, nodeName);
      known.set(nodeName, derived);
      return derived;
    },
  };
}

/**
 * Later stages win: being deleted; chosen by disruption (the leader's mark, or the karpenter.sh/disrupted taint
 * every replica sees); then what disruption may do soon — the leader's own outlook, or on a replica that does
 * not run disruption, the NodeClaim's Drifted/Consolidatable conditions the leader writes.
 */
function stateOf(state: ClusterState, node: V1Node, name: string): ExtenderNodeState {
  const providerID = node.spec?.providerID || undefined;
  const claim = providerID ? state.nodeClaimByProvider(providerID) : undefined;
  if (node.metadata?.deletionTimestamp || claim?.metadata?.deletionTimestamp) return 'terminating';
  if (state.isMarkedForDeletion(providerID ?? `node/${name}`) || hasDisruptedTaint(node.spec?.taints)) return 'disrupting';
  if (state.hasDisruptionOutlook()) return state.disruptionOutlook(name) ?? 'ok';
  return claim ? outlookFromConditions(state, node, claim) : 'ok';
}

function outlookFromConditions(state: ClusterState, node: V1Node, claim: NodeClaim): ExtenderNodeState {
  const pinned = node.metadata?.annotations?.[AnnotationDoNotDisrupt] === 'true' || claim.metadata?.annotations?.[AnnotationDoNotDisrupt] === 'true';
  if (pinned) return 'ok';
  if (isConditionTrue(claim, NodeClaimConditionTypes.Drifted)) return 'drifted';
  const pool = state.nodePool(claim.metadata?.labels?.[LabelNodePool] ?? '');
  // WhenEmpty pools consolidate only empty nodes, which the conditions alone do not tell: left as they are.
  const underutilizedAllowed = pool !== undefined && allowsUnderutilizedConsolidation(pool);
  return underutilizedAllowed && isConditionTrue(claim, NodeClaimConditionTypes.Consolidatable) ? 'consolidation-candidate' : 'ok';
}

/** The API server never stores a malformed quantity; if one arrives anyway it counts as nothing, not a failed call. */
function safely(parse: () => ResourceList): ResourceList {
  try {
    return parse();
  } catch {
    return {};
  }
}
