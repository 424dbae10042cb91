/**
 * The extender's filter verb. kube-scheduler calls it after its own filter plugins, with the nodes that
 * are feasible so far, so the extender does not repeat their checks: it passes every node through except
 * those the autoscaler is taking away, and reports when nothing is left — the provisioner's signal that
 * the pod needs new capacity, one scheduling cycle before the Unschedulable condition would be written.
 *
 * Removed nodes carry a reason the scheduler shows in "0/N nodes are available: …":
 * - `disrupting` → FailedNodes (the disruption may still be cancelled, so preemption may consider it);
 * - `terminating` → FailedAndUnresolvableNodes (preempting pods on a node being deleted frees nothing).
 * The karpenter.sh/disrupted taint already keeps most pods off those nodes in-tree; this catches pods
 * that tolerate every taint, and nodes the controller has chosen before the taint is written.
 */
import type { V1Node } from '@kubernetes/client-node';
import { nodeFromObject } from './candidates.js';
import { isDaemonSetPod } from './pod-facts.js';
import type { ExtenderArgs, ExtenderClusterView, ExtenderFilterResult, ExtenderNode, ExtenderNodeList, FailedNodesMap } from './types.js';

export const ReasonNodeDisrupting = 'node is being disrupted by karpenter-eu';
export const ReasonNodeTerminating = 'node is being terminated by karpenter-eu';

export interface FilterOutcome {
  result: ExtenderFilterResult;
  /** True when no node is left for a pod the provisioner may create capacity for. */
  needsCapacity: boolean;
}

interface Verdicts {
  /** Names kept, in input order (duplicates kept as sent). */
  kept: string[];
  failed: FailedNodesMap;
  unresolvable: FailedNodesMap;
}

// One pass, no intermediate objects: this runs for every pod on up to thousands of nodes.
function judge(names: readonly string[], nodeOf: (i: number) => ExtenderNode | undefined, passAll: boolean): Verdicts {
  const verdicts: Verdicts = { kept: [], failed: {}, unresolvable: {} };
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    const state = passAll ? undefined : nodeOf(i)?.state;
    if (state === 'terminating') verdicts.unresolvable[name] = ReasonNodeTerminating;
    else if (state === 'disrupting') verdicts.failed[name] = ReasonNodeDisrupting;
    else verdicts.kept.push(name);
  }
  return verdicts;
}

function filterNodeNames(names: readonly string[], view: ExtenderClusterView, passAll: boolean): [ExtenderFilterResult, number] {
  const verdicts = judge(names, (i) => view.get(names[i] as string), passAll);
  const result = { Nodes: null, NodeNames: verdicts.kept, FailedNodes: verdicts.failed, FailedAndUnresolvableNodes: verdicts.unresolvable, Error: '' };
  return [result, verdicts.kept.length];
}

function filterNodeObjects(list: ExtenderNodeList, view: ExtenderClusterView, passAll: boolean): [ExtenderFilterResult, number] {
  const names = list.items.map((item) => item.metadata?.name ?? '');
  const verdicts = judge(names, (i) => nodeFromObject(list.items[i] as V1Node, view.get(names[i] as string)), passAll);
  const kept = new Set(verdicts.kept);
  const items = list.items.filter((_, i) => kept.has(names[i] as string));
  const result = { Nodes: { ...list, items }, NodeNames: null, FailedNodes: verdicts.failed, FailedAndUnresolvableNodes: verdicts.unresolvable, Error: '' };
  return [result, items.length];
}

/** Filters the nodes of `args` for `args.Pod`; the result lists nodes in input order and never adds one. */
export function filter(args: ExtenderArgs, view: ExtenderClusterView): FilterOutcome {
  const daemonSetPod = isDaemonSetPod(args.Pod);
  const [result, keptCount] = args.Nodes ? filterNodeObjects(args.Nodes, view, daemonSetPod) : filterNodeNames(args.NodeNames ?? [], view, daemonSetPod);
  return { result, needsCapacity: !daemonSetPod && keptCount === 0 };
}
