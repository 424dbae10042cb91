/**
 * Pods written for the Scaleway GPU controller select `karpenter.sh/instance-type: l4`: a label no
 * node carries, with a GPU short name as value, so kube-scheduler would never place them. The mutating path
 * reads them as the NodePool defaults read short names: a GPU name (`l4`, `3070`, `nvidia-l4`) becomes
 * `karpenter-eu.io/instance-gpu-name`, anything else `node.kubernetes.io/instance-type`; each with a warning
 * naming the selector to write instead.
 */
import { CloudNames, LabelInstanceGPUName, LabelInstanceType } from '../../../apis/v1/labels.js';
import { gpuOfFlavor, normaliseGpuName, resolveGpuAlias } from '../../instancetypes/gpu-mapping.js';
import { asArray, asRecord, field, nameOf } from '../object-access.js';
import type { KubeObject } from '../types.js';

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

function rewriteNodeSelector(pod: KubeObject, warnings: string[]): void {
  const selector = asRecord(field(pod, 'spec', 'nodeSelector'));
  const value = selector?.[LegacyInstanceTypeLabel];
  if (!selector || typeof value !== 'string') return;
  const meant = legacyInstanceTypeSelector(value);
  delete selector[LegacyInstanceTypeLabel];
  selector[meant.key] = meant.value;
  warnings.push(
    `pod ${JSON.stringify(nameOf(pod))}: spec.nodeSelector ${LegacyInstanceTypeLabel}=${value} is the Scaleway GPU controller's label, which no node carries; read as ${meant.key}=${meant.value} — write that instead`,
  );
}

function rewriteAffinity(pod: KubeObject, warnings: string[]): void {
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
      expression.key = key;
      expression.values = key === LabelInstanceGPUName ? meant.map((m) => m.value) : values;
      warnings.push(
        `pod ${JSON.stringify(nameOf(pod))}: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[${t}].matchExpressions[${e}] uses ${LegacyInstanceTypeLabel}, which no node carries; read as ${key} ${String(expression.operator)} [${(expression.values as string[]).join(', ')}] — write that instead`,
      );
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

/** Rewrites the legacy selectors of a pod in place; returns one warning per rewrite. */
export function rewriteLegacyPodSelectors(pod: KubeObject): string[] {
  const warnings: string[] = [];
  rewriteNodeSelector(pod, warnings);
  rewriteAffinity(pod, warnings);
  return warnings;
}
