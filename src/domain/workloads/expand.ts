/**
 * Workloads as the pods their controllers would create: Deployments, StatefulSets, ReplicaSets and Jobs
 * become `replicas` (Jobs: `parallelism`, capped by `completions`) pods named `<workload>-<i>`, carrying the
 * template's labels and spec in the workload's namespace. Pods pass through; DaemonSets give templates.
 */
import type { V1Pod, V1PodTemplateSpec } from '@kubernetes/client-node';

export const WorkloadKinds = ['Deployment', 'StatefulSet', 'ReplicaSet', 'Job'] as const;
export type WorkloadKind = (typeof WorkloadKinds)[number];

export class WorkloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkloadError';
  }
}

interface WorkloadLike {
  kind?: unknown;
  metadata?: { name?: string; namespace?: string };
  spec?: { replicas?: number; parallelism?: number; completions?: number; template?: V1PodTemplateSpec };
}

export function isWorkloadKind(kind: unknown): kind is WorkloadKind {
  return typeof kind === 'string' && (WorkloadKinds as readonly string[]).includes(kind);
}

function replicaCount(workload: WorkloadLike, kind: WorkloadKind, name: string): number {
  const spec = workload.spec ?? {};
  const count = kind === 'Job' ? Math.min(spec.parallelism ?? 1, spec.completions ?? spec.parallelism ?? 1) : (spec.replicas ?? 1);
  if (!Number.isInteger(count) || count < 0) {
    throw new WorkloadError(`expanding ${kind} ${name}: replica count ${JSON.stringify(count)} is not accepted; use an integer ≥ 0`);
  }
  return count;
}

/** The template of a workload or DaemonSet; a WorkloadError names the object when it has none. */
export function podTemplate(workload: WorkloadLike, kind: string): V1PodTemplateSpec & { spec: NonNullable<V1PodTemplateSpec['spec']> } {
  const name = workload.metadata?.name ?? '(unnamed)';
  const template = workload.spec?.template;
  if (!template?.spec || !Array.isArray(template.spec.containers) || template.spec.containers.length === 0) {
    throw new WorkloadError(
      `expanding ${kind} ${name}: spec.template.spec.containers is missing; a workload needs a pod template with at least one container`,
    );
  }
  return template as V1PodTemplateSpec & { spec: NonNullable<V1PodTemplateSpec['spec']> };
}

/** The pods a workload's controller would create, named `<workload>-<i>`. */
export function expandWorkload(workload: WorkloadLike): V1Pod[] {
  const kind = workload.kind;
  if (!isWorkloadKind(kind))
    throw new WorkloadError(`expanding workload: kind ${JSON.stringify(kind)} is not accepted; accepted: ${WorkloadKinds.join(', ')}`);
  const name = workload.metadata?.name;
  if (!name) throw new WorkloadError(`expanding ${kind}: metadata.name is missing`);
  const namespace = workload.metadata?.namespace ?? 'default';
  const template = podTemplate(workload, kind);
  const pods: V1Pod[] = [];
  for (let i = 0; i < replicaCount(workload, kind, name); i++) {
    pods.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: `${name}-${i}`,
        namespace,
        labels: { ...(template.metadata?.labels ?? {}) },
        annotations: { ...(template.metadata?.annotations ?? {}) },
      },
      spec: structuredClone(template.spec),
    });
  }
  return pods;
}

/** A DaemonSet's pod template as a pod (for the per-node overhead). */
export function daemonSetPod(daemonSet: WorkloadLike): V1Pod {
  const template = podTemplate(daemonSet, 'DaemonSet');
  return {
    metadata: {
      name: daemonSet.metadata?.name ?? '',
      namespace: daemonSet.metadata?.namespace ?? 'default',
      labels: template.metadata?.labels ?? {},
    },
    spec: template.spec,
  };
}
