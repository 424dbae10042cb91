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
import type { V1Pod } from '@kubernetes/client-node';
import { nodeFromObject } from './candidates.js';
import { ExtenderNodeColumns, NodeStates, type ResolvedNodes, UnknownSlot } from './node-columns.js';
import { isDaemonSetPod } from '../pods/facts.js';
import type { ExtenderArgs, ExtenderClusterView, ExtenderFilterResult, FailedNodesMap } from './types.js';

export const ReasonNodeDisrupting = 'node is being disrupted by karpenter-eu';
export const ReasonNodeTerminating = 'node is being terminated by karpenter-eu';

export interface FilterOutcome {
  result: ExtenderFilterResult;
  /** True when no node is left for a pod the provisioner may create capacity for. */
  needsCapacity: boolean;
}

/** What filter does with one node: keep it, fail it (FailedNodes) or fail it for good (FailedAndUnresolvableNodes). */
export const Verdict = { Keep: 0, Failed: 1, Unresolvable: 2 } as const;

export interface FilterVerdicts {
  /** One Verdict per node, in input order. */
  verdicts: Uint8Array;
  /** True when no node is left for a pod the provisioner may create capacity for. */
  needsCapacity: boolean;
}

const Terminating = NodeStates.indexOf('terminating');
const Disrupting = NodeStates.indexOf('disrupting');

/** The verdict on each node of the call for the pod (UnknownSlot: a node the view does not know, kept). */
export function filterSlots({ columns, slots }: ResolvedNodes, pod: V1Pod): FilterVerdicts {
  const verdicts = new Uint8Array(slots.length);
  // DaemonSet pods keep every node (Verdict.Keep is 0) and never ask for capacity.
  if (isDaemonSetPod(pod)) return { verdicts, needsCapacity: false };
  let kept = 0;
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i] as number;
    const state = slot === UnknownSlot ? undefined : columns.states[slot];
    const verdict = state === Terminating ? Verdict.Unresolvable : state === Disrupting ? Verdict.Failed : Verdict.Keep;
    verdicts[i] = verdict;
    if (verdict === Verdict.Keep) kept++;
  }
  return { verdicts, needsCapacity: kept === 0 };
}

/** FailedNodes and FailedAndUnresolvableNodes of the verdicts, each with the reason the scheduler shows. */
export function failedNodeMaps(
  verdicts: Uint8Array,
  nameOf: (i: number) => string,
): { failed: FailedNodesMap; unresolvable: FailedNodesMap } {
  const failed: FailedNodesMap = {};
  const unresolvable: FailedNodesMap = {};
  for (let i = 0; i < verdicts.length; i++) {
    if (verdicts[i] === Verdict.Failed) failed[nameOf(i)] = ReasonNodeDisrupting;
    else if (verdicts[i] === Verdict.Unresolvable) unresolvable[nameOf(i)] = ReasonNodeTerminating;
  }
  return { failed, unresolvable };
}

/** Filters the nodes of `args` for `args.Pod`; the result lists nodes in input order and never adds one. */
export function filter(args: ExtenderArgs, view: ExtenderClusterView): FilterOutcome {
  const items = args.Nodes?.items;
  const names = items ? items.map((item) => item.metadata?.name ?? '') : (args.NodeNames ?? []);
  const nodes = items ? items.map((item, i) => nodeFromObject(item, view.get(names[i] as string))) : names.map((name) => view.get(name));
  const { verdicts, needsCapacity } = filterSlots(ExtenderNodeColumns.of(nodes), args.Pod);
  const { failed, unresolvable } = failedNodeMaps(verdicts, (i) => names[i] as string);
  const keep = (_: unknown, i: number): boolean => verdicts[i] === Verdict.Keep;
  const result: ExtenderFilterResult = args.Nodes
    ? {
        Nodes: { ...args.Nodes, items: args.Nodes.items.filter(keep) },
        NodeNames: null,
        FailedNodes: failed,
        FailedAndUnresolvableNodes: unresolvable,
        Error: '',
      }
    : { Nodes: null, NodeNames: names.filter(keep), FailedNodes: failed, FailedAndUnresolvableNodes: unresolvable, Error: '' };
  return { result, needsCapacity };
}
