/**
 * Pod scheduling constraints as Requirements (upstream NewPodRequirements / NewStrictPodRequirements):
 * the nodeSelector, the required node-affinity terms (ORed: the scheduler tries the first and relaxation
 * drops terms one at a time) and the preferred terms (heaviest first, treated as required until relaxed).
 */
import type { V1NodeSelectorRequirement, V1NodeSelectorTerm, V1Pod, V1PreferredSchedulingTerm } from '@kubernetes/client-node';
import { Requirement, type RequirementOperator } from './requirement.js';
import { Requirements } from './requirements.js';

type PodLike = Pick<V1Pod, 'spec'>;

export function nodeSelectorRequirements(expressions: readonly V1NodeSelectorRequirement[] | undefined): Requirements {
  const r = new Requirements();
  for (const e of expressions ?? []) r.add(Requirement.create(e.key, e.operator as RequirementOperator, e.values ?? []));
  return r;
}

/** The required node-affinity terms, in order; a node must satisfy at least one. */
export function requiredNodeAffinityTerms(pod: PodLike): readonly V1NodeSelectorTerm[] {
  return pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
}

/** The preferred node-affinity terms, heaviest first (stable for equal weights). */
export function preferredNodeAffinityTerms(pod: PodLike): V1PreferredSchedulingTerm[] {
  const preferred = pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
  return [...preferred].sort((a, b) => b.weight - a.weight);
}

export function hasPreferredNodeAffinity(pod: PodLike): boolean {
  return (pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0;
}

/** nodeSelector + the first required term: what the pod truly requires (NewStrictPodRequirements). */
export function strictPodRequirements(pod: PodLike): Requirements {
  const r = Requirements.fromLabels(pod.spec?.nodeSelector);
  const first = requiredNodeAffinityTerms(pod)[0];
  if (first) r.add(...nodeSelectorRequirements(first.matchExpressions).values());
  return r;
}

/** Strict requirements plus the heaviest preferred term treated as required (NewPodRequirements). */
export function podRequirements(pod: PodLike): Requirements {
  const r = Requirements.fromLabels(pod.spec?.nodeSelector);
  const heaviest = preferredNodeAffinityTerms(pod)[0];
  if (heaviest) r.add(...nodeSelectorRequirements(heaviest.preference.matchExpressions).values());
  const first = requiredNodeAffinityTerms(pod)[0];
  if (first) r.add(...nodeSelectorRequirements(first.matchExpressions).values());
  return r;
}

/** One alternative per required term (nodeSelector ∩ term); just the nodeSelector when there is none. */
export function podRequirementAlternatives(pod: PodLike): Requirements[] {
  const terms = requiredNodeAffinityTerms(pod);
  const base = Requirements.fromLabels(pod.spec?.nodeSelector);
  if (terms.length === 0) return [base];
  return terms.map((term) => base.copy().add(...nodeSelectorRequirements(term.matchExpressions).values()));
}

/** Whether any nodeSelector term uses matchFields (Karpenter refuses to provision for such pods). */
export function usesMatchFields(pod: PodLike): boolean {
  const preferred = pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
  return (
    requiredNodeAffinityTerms(pod).some((t) => (t.matchFields?.length ?? 0) > 0) ||
    preferred.some((t) => (t.preference.matchFields?.length ?? 0) > 0)
  );
}
