/** Shared bits of the workload controllers: owner references, pod templates, readiness counts. */
import { createHash } from 'node:crypto';
import { type KubeObject, type OwnerReference } from '../kube-object.js';
import { isPodReady } from '../pdb-status.js';

const safeAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** A stable short hash of a pod template, in Kubernetes' vowel-free alphabet (pod-template-hash). */
export function podTemplateHash(template: unknown): string {
  const digest = createHash('sha256')
    .update(JSON.stringify(template ?? {}))
    .digest();
  let out = '';
  for (let i = 0; i < 10; i++) out += safeAlphabet[(digest[i] ?? 0) % safeAlphabet.length];
  return out;
}

export function controllerRef(owner: KubeObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion ?? '',
    kind: owner.kind ?? '',
    name: owner.metadata.name ?? '',
    uid: owner.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return (obj.metadata.ownerReferences ?? []).find((r) => r.controller);
}

export interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: unknown;
}

export function podFromTemplate(
  template: PodTemplate,
  owner: KubeObject,
  extraLabels: Record<string, string>,
  name: { name?: string; generateName?: string },
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...name,
      namespace: owner.metadata.namespace,
      labels: { ...(template.metadata?.labels ?? {}), ...extraLabels },
      ...(template.metadata?.annotations ? { annotations: template.metadata.annotations } : {}),
      ownerReferences: [controllerRef(owner)],
    },
    spec: structuredClone(template.spec ?? {}),
  };
}

export function countReady(pods: readonly KubeObject[]): number {
  return pods.filter(isPodReady).length;
}

export function replicasOf(obj: KubeObject): number {
  const replicas = (obj.spec as { replicas?: number } | undefined)?.replicas;
  return typeof replicas === 'number' && replicas >= 0 ? replicas : 1;
}
