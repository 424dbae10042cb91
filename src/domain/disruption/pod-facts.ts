/**
 * What disruption needs to know about a pod: must it be rescheduled, does it forbid disruption, how costly is
 * evicting it, does a PodDisruptionBudget block it.
 */
import type { V1Pod, V1PodDisruptionBudget } from '@kubernetes/client-node';
import { AnnotationDoNotDisrupt } from '../../apis/index.js';
import { labelSelectorMatches, type LabelSelector } from '../requirements/index.js';
import { parseDurationMs } from './duration.js';

/** `karpenter.sh/do-not-disrupt: "true"`, or a duration (`5m`) counted from the pod's start, still running. */
export function hasActiveDoNotDisrupt(pod: V1Pod, now: number): boolean {
  const value = pod.metadata?.annotations?.[AnnotationDoNotDisrupt];
  if (value === undefined) return false;
  if (value === 'true') return true;
  try {
    const started = Date.parse(String(pod.status?.startTime ?? pod.metadata?.creationTimestamp ?? ''));
    return Number.isNaN(started) || now < started + parseDurationMs('do-not-disrupt', value);
  } catch {
    return false;
  }
}

/** Upstream EvictionCost: 1 + deletion-cost/2^27 + priority/2^25, clamped to [-10, 10]. */
export function evictionCost(pod: V1Pod): number {
  let cost = 1;
  const deletionCost = Number(pod.metadata?.annotations?.['controller.kubernetes.io/pod-deletion-cost'] ?? 0);
  if (Number.isFinite(deletionCost)) cost += deletionCost / 2 ** 27;
  cost += (pod.spec?.priority ?? 0) / 2 ** 25;
  return Math.min(10, Math.max(-10, cost));
}

function pdbMatches(pdb: V1PodDisruptionBudget, pod: V1Pod): boolean {
  if (pdb.metadata?.namespace !== pod.metadata?.namespace) return false;
  const selector = pdb.spec?.selector as LabelSelector | undefined;
  // An empty selector matches every pod of the namespace (policy/v1), a missing one none.
  if (selector === undefined) return false;
  return labelSelectorMatches(selector, pod.metadata?.labels ?? {});
}

/** The PDB that would refuse evicting `pod` now (disruptionsAllowed 0), or undefined. */
export function blockingPdb(pod: V1Pod, pdbs: readonly V1PodDisruptionBudget[]): V1PodDisruptionBudget | undefined {
  const matching = pdbs.filter((p) => pdbMatches(p, pod));
  // Several PDBs on one pod make the Eviction API refuse it, as upstream treats it.
  if (matching.length > 1) return matching[0];
  return matching.find((p) => (p.status?.disruptionsAllowed ?? 0) <= 0);
}
