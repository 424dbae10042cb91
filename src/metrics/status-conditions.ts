/**
 * operatorpkg's status-condition metrics (`status.NewController`, as upstream Karpenter registers it for NodeClaims,
 * NodePools and each NodeClass kind): per object and condition a count gauge and the seconds since its last
 * transition, and a counter of the transitions observed. NodeClaims carry the NodePool and NodeClass labels as extra
 * metric labels, as upstream's `WithLabels` does.
 */
import { Counter, type Registry } from 'prom-client';
import type { NodeClaim } from '../apis/index.js';
import { LabelNodePool, nodeClassLabelKey } from '../apis/v1/labels.js';
import { Resources } from '../kube/resources.js';
import type { NodeClassEntry } from '../state/snapshot.js';

export interface ConditionedObject {
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
  status?: unknown;
}

interface ConditionLike {
  type?: string;
  status?: string;
  reason?: string;
  lastTransitionTime?: string | Date;
}

export interface StatusConditionSource {
  nodePoolList(): readonly ConditionedObject[];
  nodeClaimList(): readonly NodeClaim[];
  nodeClassList(): readonly NodeClassEntry[];
}

export interface StatusConditionKind {
  /** Lowercase kind, the metric's infix: `operator_<name>_status_condition_count`. */
  name: string;
  /** The object's labels copied onto every series, by label key. */
  objectLabels: readonly string[];
  gaugeLabels: readonly string[];
  counterLabels: readonly string[];
  objects(source: StatusConditionSource): ConditionedObject[];
}

/** operatorpkg's toPrometheusLabel: `/`, `.` and `-` become `_`. */
export function prometheusLabel(key: string): string {
  return key.replaceAll(/[/.-]/g, '_');
}

const nodeClassKinds = [Resources.OVHNodeClass, Resources.ScalewayNodeClass, Resources.OutscaleNodeClass];

function kind(name: string, objectLabels: readonly string[], objects: StatusConditionKind['objects']): StatusConditionKind {
  const extra = objectLabels.map(prometheusLabel);
  return {
    name,
    objectLabels,
    gaugeLabels: ['namespace', 'name', 'type', 'status', 'reason', ...extra],
    counterLabels: ['type', 'status', 'reason', ...extra],
    objects,
  };
}

export const statusConditionKinds: readonly StatusConditionKind[] = [
  kind('nodeclaim', [LabelNodePool, ...nodeClassKinds.map((k) => nodeClassLabelKey(k.group, k.kind))], (s) => [...s.nodeClaimList()]),
  kind('nodepool', [], (s) => [...s.nodePoolList()]),
  ...nodeClassKinds.map((k) =>
    kind(k.kind.toLowerCase(), [], (s) =>
      s
        .nodeClassList()
        .filter((e) => e.kind === k.kind)
        .map((e) => e.object as ConditionedObject),
    ),
  ),
];

function conditionsOf(object: ConditionedObject): ConditionLike[] {
  const conditions = (object.status as { conditions?: unknown } | undefined)?.conditions;
  return Array.isArray(conditions) ? (conditions as ConditionLike[]) : [];
}

function extraLabels(kind: StatusConditionKind, object: ConditionedObject): Record<string, string> {
  const labels = object.metadata?.labels ?? {};
  return Object.fromEntries(kind.objectLabels.map((key) => [prometheusLabel(key), labels[key] ?? '']));
}

export interface ConditionGaugeSample {
  labels: Record<string, string>;
  /** Seconds since the condition's last transition (0 when it has none). */
  seconds: number;
}

export function conditionGaugeSamples(
  kind: StatusConditionKind,
  objects: readonly ConditionedObject[],
  now: number,
): ConditionGaugeSample[] {
  const samples: ConditionGaugeSample[] = [];
  for (const object of objects) {
    const base = { namespace: object.metadata?.namespace ?? '', name: object.metadata?.name ?? '', ...extraLabels(kind, object) };
    for (const c of conditionsOf(object)) {
      const since = c.lastTransitionTime === undefined ? now : new Date(c.lastTransitionTime).getTime();
      samples.push({
        labels: { ...base, type: c.type ?? '', status: c.status ?? '', reason: c.reason ?? '' },
        seconds: Number.isFinite(since) ? Math.max(0, (now - since) / 1000) : 0,
      });
    }
  }
  return samples;
}

export interface ConditionTransitions {
  /** An object of `kindName` (lowercase kind) was added, changed or deleted: counts each condition whose status changed. */
  observe(kindName: string, object: ConditionedObject, deleted: boolean): void;
  /**
   * Counting starts (true) and stops (false) with leadership, as upstream's controller runs only on the leader;
   * every replica keeps what it saw, so a new leader does not count conditions that were already there.
   */
  setActive(active: boolean): void;
}

/**
 * A condition transitions when it appears or its status changes between two observed versions (operatorpkg's
 * best-effort rule: two writes between observations count once).
 */
export function conditionTransitions(registry: Registry): ConditionTransitions {
  const counters = new Map<string, { kind: StatusConditionKind; counter: Counter<string> }>();
  for (const k of statusConditionKinds) {
    const name = `operator_${k.name}_status_condition_transitions_total`;
    const existing = registry.getSingleMetric(name) as Counter<string> | undefined;
    const help = 'The count of transitions of a given object, type and status.';
    counters.set(k.name, { kind: k, counter: existing ?? new Counter({ name, help, labelNames: k.counterLabels, registers: [registry] }) });
  }
  const seen = new Map<string, Map<string, string>>();
  let active = false;
  return {
    setActive: (next) => void (active = next),
    observe: (kindName, object, deleted) => {
      const entry = counters.get(kindName);
      if (!entry) return;
      const key = `${kindName}/${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`;
      if (deleted) {
        seen.delete(key);
        return;
      }
      const before = seen.get(key) ?? new Map<string, string>();
      const after = new Map<string, string>();
      for (const c of conditionsOf(object)) {
        after.set(c.type ?? '', c.status ?? '');
        if (!active || before.get(c.type ?? '') === c.status) continue;
        entry.counter.inc({ type: c.type ?? '', status: c.status ?? '', reason: c.reason ?? '', ...extraLabels(entry.kind, object) });
      }
      seen.set(key, after);
    },
  };
}
