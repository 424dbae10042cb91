/** PodDisruptionBudget arithmetic as the disruption controller computes it (policy/v1). */
import { type KubeObject } from './kube-object.js';
import { type LabelSelectorObject, matchesSelectorObject } from './label-selector.js';

export interface PdbStatus {
  observedGeneration: number;
  expectedPods: number;
  currentHealthy: number;
  desiredHealthy: number;
  disruptionsAllowed: number;
  disruptedPods?: Record<string, string>;
}

interface PdbSpec {
  selector?: LabelSelectorObject | null;
  minAvailable?: number | string;
  maxUnavailable?: number | string;
}

/** `{}` selects every pod of the namespace in policy/v1; a missing selector selects none. */
export function pdbSelects(pdb: KubeObject, pod: KubeObject): boolean {
  const spec = (pdb.spec ?? {}) as PdbSpec;
  if (pod.metadata.namespace !== pdb.metadata.namespace || !spec.selector) return false;
  return matchesSelectorObject(pod.metadata.labels, spec.selector);
}

export function isPodReady(pod: KubeObject): boolean {
  const conditions = (pod.status as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? [];
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}

function scaled(value: number | string, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  const percent = Number(value.replace('%', '')) / 100;
  return roundUp ? Math.ceil(percent * total) : Math.floor(percent * total);
}

export function computePdbStatus(pdb: KubeObject, pods: readonly KubeObject[]): PdbStatus {
  const spec = (pdb.spec ?? {}) as PdbSpec;
  const disrupted = (pdb.status as { disruptedPods?: Record<string, string> } | undefined)?.disruptedPods ?? {};
  const selected = pods.filter((p) => pdbSelects(pdb, p));
  const expectedPods = selected.length;
  const currentHealthy = selected.filter(
    (p) => isPodReady(p) && !p.metadata.deletionTimestamp && !((p.metadata.name ?? '') in disrupted),
  ).length;
  let desiredHealthy = 0;
  if (spec.minAvailable !== undefined) desiredHealthy = scaled(spec.minAvailable, expectedPods, true);
  else if (spec.maxUnavailable !== undefined) desiredHealthy = Math.max(0, expectedPods - scaled(spec.maxUnavailable, expectedPods, true));
  const live = Object.fromEntries(Object.entries(disrupted).filter(([name]) => selected.some((p) => p.metadata.name === name)));
  return {
    observedGeneration: pdb.metadata.generation ?? 1,
    expectedPods,
    currentHealthy,
    desiredHealthy,
    disruptionsAllowed: Math.max(0, currentHealthy - desiredHealthy),
    ...(Object.keys(live).length > 0 ? { disruptedPods: live } : {}),
  };
}

/** The full status object written to the PDB, with the DisruptionAllowed condition. */
export function pdbStatusObject(status: PdbStatus, previous: unknown, nowIso: string): Record<string, unknown> {
  const allowed = status.disruptionsAllowed > 0;
  const prevCondition = (
    (previous as { conditions?: Array<{ type: string; status: string; lastTransitionTime?: string }> } | undefined)?.conditions ?? []
  ).find((c) => c.type === 'DisruptionAllowed');
  const conditionStatus = allowed ? 'True' : 'False';
  return {
    ...status,
    conditions: [
      {
        type: 'DisruptionAllowed',
        status: conditionStatus,
        reason: allowed ? 'SufficientPods' : 'InsufficientPods',
        message: '',
        observedGeneration: status.observedGeneration,
        lastTransitionTime: prevCondition && prevCondition.status === conditionStatus ? prevCondition.lastTransitionTime : nowIso,
      },
    ],
  };
}
