/**
 * Preference relaxation (Karpenter preferences.go): one step per failed attempt, in upstream's order — drop a
 * required node-affinity term when there are several (they are ORed), the heaviest preferred pod affinity,
 * the heaviest preferred pod anti-affinity, the heaviest preferred node affinity, a ScheduleAnyway spread;
 * finally tolerate PreferNoSchedule taints. Returns a relaxed copy, or undefined when nothing is left.
 */
import type { V1PodSpec } from '@kubernetes/client-node';
import type { PodLike } from './types.js';

type Step = (spec: V1PodSpec) => boolean;

function heaviestRemoved<T extends { weight: number }>(list: T[] | undefined): boolean {
  if (!list || list.length === 0) return false;
  let index = 0;
  for (let i = 1; i < list.length; i++) if ((list[i] as T).weight > (list[index] as T).weight) index = i;
  list.splice(index, 1);
  return true;
}

const steps: readonly Step[] = [
  (spec) => {
    const terms = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
    if (!terms || terms.length < 2) return false;
    terms.shift();
    return true;
  },
  (spec) => heaviestRemoved(spec.affinity?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution),
  (spec) => heaviestRemoved(spec.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution),
  (spec) => heaviestRemoved(spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution),
  (spec) => {
    const spreads = spec.topologySpreadConstraints;
    const index = spreads?.findIndex((c) => c.whenUnsatisfiable === 'ScheduleAnyway') ?? -1;
    if (!spreads || index < 0) return false;
    spreads.splice(index, 1);
    return true;
  },
  (spec) => {
    const tolerations = spec.tolerations ?? [];
    if (tolerations.some((t) => t.operator === 'Exists' && !t.key && t.effect === 'PreferNoSchedule')) return false;
    spec.tolerations = [...tolerations, { operator: 'Exists', effect: 'PreferNoSchedule' }];
    return true;
  },
];

/** The pod with its next preference relaxed, or undefined when it has none left. */
export function relaxPreferences(pod: PodLike): PodLike | undefined {
  if (!pod.spec) return undefined;
  const spec = structuredClone(pod.spec);
  for (const step of steps) if (step(spec)) return { metadata: pod.metadata, spec };
  return undefined;
}

/** Every preference dropped at once (PREFERENCE_POLICY=Ignore); required terms and PreferNoSchedule stay. */
export function ignorePreferences(pod: PodLike): PodLike {
  if (!pod.spec) return pod;
  const spec = structuredClone(pod.spec);
  if (spec.affinity?.podAffinity) delete spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution;
  if (spec.affinity?.podAntiAffinity) delete spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution;
  if (spec.affinity?.nodeAffinity) delete spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution;
  if (spec.topologySpreadConstraints)
    spec.topologySpreadConstraints = spec.topologySpreadConstraints.filter((c) => c.whenUnsatisfiable !== 'ScheduleAnyway');
  return { metadata: pod.metadata, spec };
}
