/**
 * PodTopologySpread (DoNotSchedule constraints) and InterPodAffinity (required terms, both directions) over
 * any topology key (hostname and zone in practice), as kube-scheduler filters them.
 */
import { type V1Pod, type V1PodAffinityTerm, type V1TopologySpreadConstraint } from '@kubernetes/client-node';
import { labelSelectorMatches, type LabelSelector } from '../../../domain/requirements/index.js';
import { nodeAffinity } from './filters.js';
import { type NodeInfo } from './node-info.js';

function countsPod(pod: V1Pod): boolean {
  return !pod.metadata?.deletionTimestamp;
}

/** Pods matching a spread constraint's selector in the pod's namespace, per topology domain, over eligible nodes. */
function spreadCounts(pod: V1Pod, constraint: V1TopologySpreadConstraint, infos: Map<string, NodeInfo>): Map<string, number> {
  const counts = new Map<string, number>();
  const namespace = pod.metadata?.namespace;
  for (const info of infos.values()) {
    const domain = info.labels[constraint.topologyKey];
    if (domain === undefined) continue;
    // nodeAffinityPolicy defaults to Honor: only nodes the pod could land on define domains.
    if (constraint.nodeAffinityPolicy !== 'Ignore' && nodeAffinity(pod, info).length > 0) continue;
    let n = counts.get(domain) ?? 0;
    for (const other of info.pods) {
      if (
        countsPod(other) &&
        other.metadata?.namespace === namespace &&
        labelSelectorMatches(constraint.labelSelector as LabelSelector, other.metadata?.labels)
      )
        n++;
    }
    counts.set(domain, n);
  }
  return counts;
}

export function podTopologySpread(pod: V1Pod, info: NodeInfo, infos: Map<string, NodeInfo>): string[] {
  for (const constraint of pod.spec?.topologySpreadConstraints ?? []) {
    if (constraint.whenUnsatisfiable !== 'DoNotSchedule') continue;
    const domain = info.labels[constraint.topologyKey];
    if (domain === undefined) return ["node(s) didn't match pod topology spread constraints (missing required label)"];
    const counts = spreadCounts(pod, constraint, infos);
    const self = labelSelectorMatches(constraint.labelSelector as LabelSelector, pod.metadata?.labels) ? 1 : 0;
    const values = [...counts.values()];
    const globalMin = values.length < (constraint.minDomains ?? 1) ? 0 : Math.min(...values);
    if ((counts.get(domain) ?? 0) + self - globalMin > constraint.maxSkew) return ["node(s) didn't match pod topology spread constraints"];
  }
  return [];
}

function termMatches(term: V1PodAffinityTerm, owner: V1Pod, candidate: V1Pod): boolean {
  const namespaces = term.namespaces?.length ? term.namespaces : term.namespaceSelector ? undefined : [owner.metadata?.namespace ?? ''];
  if (namespaces && !namespaces.includes(candidate.metadata?.namespace ?? '')) return false;
  return labelSelectorMatches(term.labelSelector as LabelSelector, candidate.metadata?.labels);
}

/** Pods in the same `topologyKey` domain as `info` (its own pods for hostname). */
function podsInDomain(topologyKey: string, info: NodeInfo, infos: Map<string, NodeInfo>): V1Pod[] {
  const domain = info.labels[topologyKey];
  if (domain === undefined) return [];
  const pods: V1Pod[] = [];
  for (const other of infos.values()) if (other.labels[topologyKey] === domain) pods.push(...other.pods.filter(countsPod));
  return pods;
}

export interface PlacedPod {
  pod: V1Pod;
  info: NodeInfo;
}

/** Bound pods carrying required anti-affinity terms: the only ones that can reject an incoming pod. */
export function antiAffinityHolders(infos: Map<string, NodeInfo>): PlacedPod[] {
  const holders: PlacedPod[] = [];
  for (const info of infos.values())
    for (const pod of info.pods) if (hasRequiredAntiAffinity(pod) && countsPod(pod)) holders.push({ pod, info });
  return holders;
}

export function interPodAffinity(pod: V1Pod, info: NodeInfo, infos: Map<string, NodeInfo>, holders: readonly PlacedPod[]): string[] {
  const affinity = pod.spec?.affinity;
  for (const term of affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []) {
    if (podsInDomain(term.topologyKey, info, infos).some((other) => termMatches(term, pod, other)))
      return ["node(s) didn't match pod anti-affinity rules"];
  }
  for (const term of affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []) {
    if (podsInDomain(term.topologyKey, info, infos).some((other) => termMatches(term, pod, other))) continue;
    // The first pod of a group that selects itself may go anywhere the key exists.
    const anyMatch = [...infos.values()].some((i) => i.pods.some((other) => countsPod(other) && termMatches(term, pod, other)));
    if (anyMatch || !termMatches(term, pod, pod) || info.labels[term.topologyKey] === undefined)
      return ["node(s) didn't match pod affinity rules"];
  }
  for (const { pod: existing, info: other } of holders) {
    for (const term of existing.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []) {
      const domain = other.labels[term.topologyKey];
      if (domain !== undefined && info.labels[term.topologyKey] === domain && termMatches(term, existing, pod)) {
        return ["node(s) didn't satisfy existing pods anti-affinity rules"];
      }
    }
  }
  return [];
}

/** Whether any pod in the cluster carries required anti-affinity (lets the scheduler skip the scan). */
export function hasRequiredAntiAffinity(pod: V1Pod): boolean {
  return (pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0;
}
