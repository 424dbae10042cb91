/**
 * Pods (and the pod templates of workloads) written for the Scaleway GPU controller: the legacy
 * `karpenter.sh/instance-type` selector becomes the label the nodes carry, and a pod asking for a GPU gets the
 * toleration of the converted GPU-only NodePools' taint. Admission refuses the legacy selector as written.
 */
import { asRecord, field, kindOf } from '../admission/object-access.js';
import { needsGpuToleration, rewriteLegacyPodSelectors } from '../admission/rules/pod-selectors.js';
import type { KubeObject } from '../admission/types.js';
import { GpuNodeToleration } from '../requirements/taints.js';
import type { ConvertNote } from './types.js';

/** Where each kind keeps the pod (its `spec` and `metadata`). */
const podPaths: Readonly<Record<string, readonly string[]>> = {
  Pod: [],
  Deployment: ['spec', 'template'],
  ReplicaSet: ['spec', 'template'],
  StatefulSet: ['spec', 'template'],
  DaemonSet: ['spec', 'template'],
  Job: ['spec', 'template'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template'],
};

export function isWorkload(object: KubeObject): boolean {
  return podPaths[kindOf(object)] !== undefined;
}

/** The workload rewritten, or undefined when nothing in it needs to change. */
export function convertWorkload(object: KubeObject, gpuPools: boolean, notes: ConvertNote[]): KubeObject | undefined {
  const path = podPaths[kindOf(object)];
  if (!path) return undefined;
  const copy = structuredClone(object);
  const pod = path.length === 0 ? copy : asRecord(field(copy, ...path));
  if (!pod) return undefined;
  const rewrites = rewriteLegacyPodSelectors(pod);
  const tolerate = gpuPools && needsGpuToleration(pod);
  if (rewrites.length === 0 && !tolerate) return undefined;
  for (const r of rewrites) {
    const at = r.path === 'spec.nodeSelector' ? [...path, 'spec', 'nodeSelector'] : [];
    notes.push({ path: at, comment: `was ${r.was}: the Scaleway GPU controller's label, which no node carries` });
  }
  if (tolerate) {
    const spec = asRecord(pod.spec) as KubeObject;
    spec.tolerations = [...(Array.isArray(spec.tolerations) ? spec.tolerations : []), { ...GpuNodeToleration }];
    notes.push({
      path: [...path, 'spec', 'tolerations'],
      comment: `added ${GpuNodeToleration.key}: the converted GPU NodePools are tainted so that only GPU pods land on their nodes`,
    });
  }
  return copy;
}
