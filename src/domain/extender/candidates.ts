/**
 * The nodes of one extender call, each resolved to what the autoscaler knows about it. With NodeNames
 * (nodeCacheCapable) the view is the only source; with full Nodes the object's labels, taints and
 * allocatable are fresher than the view, while requests, price and state come from the view.
 */
import type { V1Node } from '@kubernetes/client-node';
import { hasDisruptedTaint } from '../../apis/v1/labels.js';
import type { ResourceList } from '../instancetypes/types.js';
import { parseResourceList } from '../quantity/resource-list.js';
import type { Taint } from '../requirements/taints.js';
import type { ExtenderArgs, ExtenderClusterView, ExtenderNode, ExtenderNodeState } from './types.js';

export interface Candidate {
  name: string;
  /** undefined: neither the view nor the request says anything about this node. */
  node: ExtenderNode | undefined;
}

// Higher = further along the way out; when the object and the view disagree, the later stage wins.
const stateSeverity: Readonly<Record<ExtenderNodeState, number>> = {
  ok: 0,
  'consolidation-candidate': 1,
  drifted: 1,
  disrupting: 2,
  terminating: 3,
};

function laterState(a: ExtenderNodeState, b: ExtenderNodeState): ExtenderNodeState {
  return stateSeverity[b] > stateSeverity[a] ? b : a;
}

function stateFromObject(object: V1Node, taints: readonly Taint[]): ExtenderNodeState {
  if (object.metadata?.deletionTimestamp) return 'terminating';
  if (hasDisruptedTaint(taints)) return 'disrupting';
  return 'ok';
}

function allocatableFromObject(object: V1Node, fallback: ResourceList): ResourceList {
  try {
    return parseResourceList(object.status?.allocatable);
  } catch {
    // A quantity the API server would never store: keep what the view knows rather than fail the call.
    return fallback;
  }
}

/** ExtenderNode from a full Node object, merged with what the view knows about it. */
export function nodeFromObject(object: V1Node, known: ExtenderNode | undefined): ExtenderNode {
  const taints: Taint[] = (object.spec?.taints ?? []).map((t) => ({ key: t.key, value: t.value, effect: t.effect }));
  const objectState = stateFromObject(object, taints);
  return {
    labels: object.metadata?.labels ?? known?.labels ?? {},
    taints,
    allocatable: allocatableFromObject(object, known?.allocatable ?? {}),
    requested: known?.requested ?? {},
    pricePerHour: known?.pricePerHour,
    state: laterState(objectState, known?.state ?? 'ok'),
  };
}

/** Every node of the call, in input order (Nodes.items when set, else NodeNames). */
export function candidateNodes(args: ExtenderArgs, view: ExtenderClusterView): Candidate[] {
  if (args.Nodes) {
    return args.Nodes.items.map((object) => {
      const name = object.metadata?.name ?? '';
      return { name, node: nodeFromObject(object, view.get(name)) };
    });
  }
  return (args.NodeNames ?? []).map((name) => ({ name, node: view.get(name) }));
}
