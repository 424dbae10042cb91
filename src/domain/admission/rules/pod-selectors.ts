/**
 * Pods written for the Scaleway GPU controller select `karpenter.sh/instance-type: l4`: a label no
 * node carries, with a GPU short name as value, so kube-scheduler would never place them. Admission refuses
 * them, naming the selector to write instead, and `convert` rewrites them so: read as the NodePool defaults read
 * short names, a GPU name (`l4`, `3070`, `nvidia-l4`) becomes `karpenter-eu.io/instance-gpu-name`, anything
 * else `node.kubernetes.io/instance-type`.
 */
import { CloudNames, LabelInstanceGPUName, LabelInstanceType } from '../../../apis/v1/labels.js';
import { gpuOfFlavor, normaliseGpuName, resolveGpuAlias } from '../../instancetypes/gpu-mapping.js';
import { podSchedulingRequests } from '../../pods/requests.js';
import { GpuNodeTaint, GpuNodeToleration, type Toleration, toleratesAny } from '../../requirements/taints.js';
import { asArray, asRecord, field } from '../object-access.js';
import type { KubeObject, Violation } from '../types.js';

export const LegacyInstanceTypeLabel = 'karpenter.sh/instance-type';

/** The label and value a legacy `karpenter.sh/instance-type` value means. */
export function legacyInstanceTypeSelector(value: string): { key: string; value: string } {
  const gpu =
    normaliseGpuName(value) ??
    CloudNames.map((cloud) => gpuOfFlavor(cloud, resolveGpuAlias(cloud, value) ?? '')).find((g) => g !== undefined);
  const isFlavorName = CloudNames.some((cloud) => gpuOfFlavor(cloud, value) !== undefined);
  return gpu && !isFlavorName ? { key: LabelInstanceGPUName, value: gpu } : { key: LabelInstanceType, value };
}

/** A node affinity expression on the legacy label, with values to read. */
const legacyExpression = (raw: unknown): boolean => asRecord(raw)?.key === LegacyInstanceTypeLabel && Array.isArray(asRecord(raw)?.values);

/** One legacy selector rewritten: where, what was written, and the line to write instead. */
export interface LegacySelectorRewrite {
  path: string;
  was: string;
  write: string;
}

function rewriteNodeSelector(pod: KubeObject, rewrites: LegacySelectorRewrite[]): void {
  const selector = asRecord(field(pod, 'spec', 'nodeSelector'));
  const value = selector?.[LegacyInstanceTypeLabel];
  if (!selector || typeof value !== 'string') return;
  const meant = legacyInstanceTypeSelector(value);
  delete selector[LegacyInstanceTypeLabel];
  selector[meant.key] = meant.value;
  rewrites.push({ path: 'spec.nodeSelector', was: `${LegacyInstanceTypeLabel}: ${value}`, write: `${meant.key}: ${meant.value}` });
}

function rewriteAffinity(pod: KubeObject, rewrites: LegacySelectorRewrite[]): void {
  const terms = asArray(
    field(pod, 'spec', 'affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms'),
  );
  terms.forEach((term, t) => {
    asArray(field(term, 'matchExpressions')).forEach((raw, e) => {
      const expression = asRecord(raw);
      if (!expression || !legacyExpression(expression) || !Array.isArray(expression.values)) return;
      const values = expression.values.filter((v): v is string => typeof v === 'string');
      const meant = values.map(legacyInstanceTypeSelector);
      const key = meant.every((m) => m.key === LabelInstanceGPUName) && meant.length > 0 ? LabelInstanceGPUName : LabelInstanceType;
      const was = `{key: ${LegacyInstanceTypeLabel}, operator: ${String(expression.operator)}, values: [${values.join(', ')}]}`;
      expression.key = key;
      expression.values = key === LabelInstanceGPUName ? meant.map((m) => m.value) : values;
      rewrites.push({
        path: `spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[${t}].matchExpressions[${e}]`,
        was,
        write: `{key: ${key}, operator: ${String(expression.operator)}, values: [${(expression.values as string[]).join(', ')}]}`,
      });
    });
  });
}

/** Whether rewriteLegacyPodSelectors would change the pod: most pods need no copy made to find out. */
export function hasLegacyPodSelectors(pod: KubeObject): boolean {
  if (typeof asRecord(field(pod, 'spec', 'nodeSelector'))?.[LegacyInstanceTypeLabel] === 'string') return true;
  const terms = asArray(
    field(pod, 'spec', 'affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms'),
  );
  return terms.some((term) => asArray(field(term, 'matchExpressions')).some(legacyExpression));
}

/** Rewrites the legacy selectors of a pod spec's owner in place (`convert`); returns each rewrite. */
export function rewriteLegacyPodSelectors(pod: KubeObject): LegacySelectorRewrite[] {
  const rewrites: LegacySelectorRewrite[] = [];
  rewriteNodeSelector(pod, rewrites);
  rewriteAffinity(pod, rewrites);
  return rewrites;
}

/** What a rewrite means to the pod's author: why the selector never matches, and the line to write instead. */
export function legacySelectorProblem(rewrite: LegacySelectorRewrite): string {
  return `${LegacyInstanceTypeLabel} is the Scaleway GPU controller's label, which no node carries: the pod would stay Pending; instead of \`${rewrite.was}\` write \`${rewrite.write}\``;
}

/** Whether a pod asks for a GPU but does not tolerate the taint of GPU-only NodePools. */
export function needsGpuToleration(pod: KubeObject): boolean {
  let requests: Record<string, number>;
  try {
    requests = podSchedulingRequests({ spec: field(pod, 'spec') as never });
  } catch {
    return false; // the API server rejects malformed quantities itself
  }
  const tolerations = asArray(field(pod, 'spec', 'tolerations')) as Toleration[];
  return (requests[GpuNodeTaint.key] ?? 0) > 0 && !toleratesAny(tolerations, GpuNodeTaint);
}

/**
 * The refusal of a pod selecting the legacy label: one violation per selector, each with the line to write;
 * a GPU pod that would then meet the GPU-only NodePools' taint is told the toleration too.
 */
export function legacyPodSelectorViolations(pod: KubeObject, gpuTaint: boolean): Violation[] {
  if (!hasLegacyPodSelectors(pod)) return [];
  const t = GpuNodeToleration;
  const toleration =
    gpuTaint && needsGpuToleration(pod)
      ? `; and tolerate the GPU nodes' taint: \`tolerations: [{key: ${t.key}, operator: ${t.operator}, effect: ${t.effect}}]\``
      : '';
  return rewriteLegacyPodSelectors(structuredClone(pod)).map((r) => ({
    path: r.path,
    message: `Forbidden: ${legacySelectorProblem(r)}${toleration}`,
  }));
}
