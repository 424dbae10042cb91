/**
 * kube-scheduler's main Filter plugins over one node, each returning the reasons it rejects the node with,
 * worded as kube-scheduler words them (they end up in the "0/N nodes are available: …" message).
 */
import { type V1Pod } from '@kubernetes/client-node';
import { podHostPorts, podSchedulingRequests, firstHostPortConflict } from '../../../domain/pods/index.js';
import { exceededResources, ResourcePods, subtractResources } from '../../../domain/quantity/index.js';
import { firstUntoleratedTaint, podRequirementAlternatives, type Taint } from '../../../domain/requirements/index.js';
import { type NodeInfo } from './node-info.js';

export const TaintUnschedulable = 'node.kubernetes.io/unschedulable';

export function nodeUnschedulable(pod: V1Pod, info: NodeInfo): string[] {
  if (!info.node.spec?.unschedulable) return [];
  const tolerated = (pod.spec?.tolerations ?? []).some(
    (t) => (t.key === TaintUnschedulable || (!t.key && t.operator === 'Exists')) && (!t.effect || t.effect === 'NoSchedule'),
  );
  return tolerated ? [] : ['node(s) were unschedulable'];
}

export function taintToleration(pod: V1Pod, info: NodeInfo): string[] {
  const taint = firstUntoleratedTaint(info.node.spec?.taints as Taint[] | undefined, pod.spec?.tolerations, ['NoSchedule', 'NoExecute']);
  return taint ? [`node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`] : [];
}

export function nodeAffinity(pod: V1Pod, info: NodeInfo): string[] {
  const matches = podRequirementAlternatives(pod).some((requirements) => requirements.matchesLabels(info.labels));
  return matches ? [] : ["node(s) didn't match Pod's node affinity/selector"];
}

export function nodePorts(pod: V1Pod, info: NodeInfo): string[] {
  const wanted = podHostPorts(pod);
  if (wanted.length === 0) return [];
  return firstHostPortConflict(wanted, info.usedPorts) ? ["node(s) didn't have free ports for the requested pod ports"] : [];
}

/** NodeResourcesFit: one reason per exceeded resource; the pod slot reads "Too many pods". */
export function nodeResourcesFit(pod: V1Pod, info: NodeInfo, requests = podSchedulingRequests(pod)): string[] {
  const available = subtractResources(info.allocatable, info.requested);
  return exceededResources(requests, available)
    .sort()
    .map((name) => (name === ResourcePods ? 'Too many pods' : `Insufficient ${name}`));
}
