/** The extender's view of the cluster (ExtenderClusterView) backed by the informer-fed ClusterState. */
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { AnnotationDoNotDisrupt, hasDisruptedTaint, LabelNodePool, type NodeClaim, NodeClaimConditionTypes } from '../apis/index.js';
import { allowsUnderutilizedConsolidation } from '../domain/disruption/index.js';
import {
  type ExtenderClusterView,
  type ExtenderNode,
  ExtenderNodeColumns,
  type ExtenderNodeState,
  type ResolvedNodes,
  UnknownSlot,
} from '../domain/extender/index.js';
import type { ResourceList } from '../domain/instancetypes/types.js';
import { overlaidNodePrice } from '../domain/nodeoverlay/apply.js';
import { podSchedulingRequests } from '../domain/pods/index.js';
import { isTerminal } from '../domain/pods/index.js';
import { isConditionTrue } from '../domain/provisioning/index.js';
import { addResources, parseResourceList } from '../domain/quantity/index.js';
import type { Taint } from '../domain/requirements/taints.js';
import type { ClusterState } from '../state/cluster-state.js';
import { ByteNameIndex, dataViewOf, type NameSpans, type NodesByBytes, spanName } from '../byte-path/index.js';
import { grown } from '../util/typed-arrays.js';
import type { CatalogPriceBook } from './price-book.js';

/**
 * The view answers for every node of every filter/prioritize call, inside the scheduler's cycle (5,000 nodes
 * per call). Each node's answer is derived once and kept until ClusterState reports a change to that node (the
 * Node, its NodeClaim, a pod bound to it, a deletion mark, its disruption outlook, its NodePool), as upstream's
 * StateNode keeps its requests up to date instead of summing pods per question. Known node names are indexed
 * by their bytes, so a request's names are found where they lie in its body (nodesNamed).
 */
export function clusterStateExtenderView(
  state: ClusterState,
  prices: CatalogPriceBook,
  options: { nodeOverlays?: boolean } = {},
): ExtenderClusterView & NodesByBytes {
  // A slot per node ClusterState holds (by name, or by the name's bytes); its answer in `columns`, kept while
  // `current[slot]` is 1 (set to 0 by a change to the node).
  const index = new ByteNameIndex();
  const columns = new ExtenderNodeColumns();
  let current = new Uint8Array(64);
  // A pod's requests do not change while the object stays the same (ClusterState replaces objects on update).
  const podRequests = new WeakMap<V1Pod, ResourceList>();
  state.onNodeChange((name) => {
    const slot = index.slotOf(name);
    if (slot === UnknownSlot) return;
    current[slot] = 0;
    if (state.node(name)) return;
    // Gone: the slot may go to another node; its old answer (and the objects it holds) is let go now.
    index.remove(name);
    columns.forget(slot);
  });

  const requestsOf = (pod: V1Pod): ResourceList => {
    let requests = podRequests.get(pod);
    if (!requests) podRequests.set(pod, (requests = safely(() => podSchedulingRequests(pod))));
    return requests;
  };

  // With the NodeOverlay gate, a node is worth what the overlays make its offering worth to the simulation.
  const priceOf = (labels: Record<string, string>): number | undefined => {
    const listed = prices.hourlyForLabels(labels);
    return listed === undefined || !options.nodeOverlays ? listed : overlaidNodePrice(labels, listed, state.nodeOverlayList());
  };

  const derive = (node: V1Node, name: string): ExtenderNode => {
    const labels = node.metadata?.labels ?? {};
    return {
      labels,
      taints: (node.spec?.taints ?? []) as Taint[],
      allocatable: safely(() => parseResourceList(node.status?.allocatable ?? {})),
      requested: addResources(
        ...state
          .podsOnNode(name)
          .filter((p) => !isTerminal(p))
          .map(requestsOf),
      ),
      pricePerHour: priceOf(labels),
      state: stateOf(state, node, name),
    };
  };

  /** The node's slot with its answer current; UnknownSlot for a node ClusterState does not hold. */
  const slotOf = (name: string, known: number): number => {
    if (known !== UnknownSlot && current[known] === 1) return known;
    const node = state.node(name);
    if (!node) return UnknownSlot;
    const slot = known !== UnknownSlot ? known : index.add(name);
    // A name that is not plain (no Kubernetes node name) is not indexed; get() derives it on every call.
    if (slot === UnknownSlot) return UnknownSlot;
    columns.set(slot, derive(node, name));
    if (slot >= current.length) current = grown(current, index.slotLimit);
    current[slot] = 1;
    return slot;
  };

  return {
    get(name: string): ExtenderNode | undefined {
      const slot = slotOf(name, index.slotOf(name));
      if (slot !== UnknownSlot) return columns.nodes[slot];
      const node = state.node(name);
      return node ? derive(node, name) : undefined;
    },
    nodesNamed(names: NameSpans): ResolvedNodes {
      const { starts, ends } = names;
      const bytes = dataViewOf(names.bytes);
      const slots = new Int32Array(names.count);
      for (let i = 0; i < names.count; i++) {
        const known = index.find(bytes, starts[i] as number, ends[i] as number);
        // Not indexed: a node ClusterState does not hold (yet), or one not asked about since it arrived.
        slots[i] =
          known !== UnknownSlot && current[known] === 1
            ? known
            : slotOf(known !== UnknownSlot ? (index.nameOf(known) as string) : spanName(names, i), known);
      }
      return { columns, slots };
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
  const pinned =
    node.metadata?.annotations?.[AnnotationDoNotDisrupt] === 'true' || claim.metadata?.annotations?.[AnnotationDoNotDisrupt] === 'true';
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
