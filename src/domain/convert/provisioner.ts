/**
 * karpenter.sh/v1alpha5 Provisioner → karpenter.sh/v1 NodePool, as upstream's v1beta1/v1 migration moves
 * the fields (limits.resources → limits, ttlSecondsAfterEmpty → disruption, ttlSecondsUntilExpired →
 * expireAfter, labels/taints into the template), plus what the Scaleway GPU controller's users wrote: the
 * `scaleway-gpu` capacity type and `karpenter.sh/instance-type` short GPU names.
 */
import { CapacityTypeOnDemand, LabelCapacityType, LabelInstanceGPUName } from '../../apis/v1/labels.js';
import { asArray, asRecord, asString, field, nameOf } from '../admission/object-access.js';
import { LegacyInstanceTypeLabel, legacyInstanceTypeSelector } from '../admission/rules/pod-selectors.js';
import type { KubeObject } from '../admission/types.js';
import { GpuNodeTaint } from '../requirements/taints.js';
import type { ConvertNote } from './types.js';

export const ScalewayGpuCapacityType = 'scaleway-gpu';

interface Requirement {
  key: string;
  operator: string;
  values?: string[];
}

const requirementsPath = (i: number): (string | number)[] => ['spec', 'template', 'spec', 'requirements', i];

/** One v1alpha5 requirement in v1 terms, or undefined when it cannot be carried (with a note saying why). */
function convertRequirement(raw: unknown, index: number, notes: ConvertNote[]): Requirement | undefined {
  const r = asRecord(raw);
  const key = asString(r?.key);
  const operator = asString(r?.operator) ?? 'In';
  const values = asArray(r?.values).filter((v): v is string => typeof v === 'string');
  if (!key) return undefined;
  const at = requirementsPath(index);
  if (key.startsWith('karpenter.k8s.aws/')) {
    notes.push({
      path: ['spec', 'template', 'spec', 'requirements'],
      comment: `dropped ${key} ${operator} [${values.join(', ')}]: an AWS instance attribute; use karpenter-eu.io/instance-* labels (family, cpu, memory, gpu-name)`,
    });
    return undefined;
  }
  if (key === LabelCapacityType) {
    const kept = values.filter((v) => v === CapacityTypeOnDemand);
    const replaced = values.filter((v) => v !== CapacityTypeOnDemand);
    if (replaced.length > 0)
      notes.push({
        path: at,
        comment: `was ${operator} [${values.join(', ')}]: OVHcloud, Scaleway and Outscale sell on-demand only${values.includes(ScalewayGpuCapacityType) ? `; "${ScalewayGpuCapacityType}" was the Scaleway GPU controller's marker, the GPU choice is karpenter-eu.io/instance-gpu-name` : ''}`,
      });
    return { key, operator: 'In', values: kept.length > 0 ? kept : [CapacityTypeOnDemand] };
  }
  if (key === LegacyInstanceTypeLabel) {
    const meant = values.map(legacyInstanceTypeSelector);
    const newKey = meant[0]?.key ?? key;
    notes.push({
      path: at,
      comment: `was ${key} ${operator} [${values.join(', ')}] (the Scaleway GPU controller's label, which no node carries)`,
    });
    return { key: newKey, operator, values: meant.filter((m) => m.key === newKey).map((m) => m.value) };
  }
  return { key, operator, ...(values.length > 0 || operator === 'In' || operator === 'NotIn' ? { values } : {}) };
}

function seconds(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? `${Math.round(value)}s` : undefined;
}

function disruptionOf(spec: KubeObject, notes: ConvertNote[]): KubeObject {
  const empty = seconds(spec.ttlSecondsAfterEmpty);
  const consolidation = asRecord(spec.consolidation)?.enabled === true;
  if (consolidation) {
    notes.push({ path: ['spec', 'disruption'], comment: 'from consolidation.enabled: true' });
    return { consolidationPolicy: 'WhenEmptyOrUnderutilized', consolidateAfter: '0s' };
  }
  if (empty) {
    notes.push({ path: ['spec', 'disruption'], comment: `from ttlSecondsAfterEmpty: ${String(spec.ttlSecondsAfterEmpty)}` });
    return { consolidationPolicy: 'WhenEmpty', consolidateAfter: empty };
  }
  notes.push({ path: ['spec', 'disruption'], comment: 'the Provisioner neither consolidated nor removed empty nodes' });
  return { consolidationPolicy: 'WhenEmpty', consolidateAfter: 'Never' };
}

function droppedFields(spec: KubeObject, notes: ConvertNote[]): void {
  if (spec.kubeletConfiguration !== undefined)
    notes.push({ path: ['spec'], comment: 'dropped kubeletConfiguration: set kubelet flags in the NodeClass userData' });
  if (spec.provider !== undefined)
    notes.push({
      path: ['spec', 'template', 'spec', 'nodeClassRef'],
      comment: 'replaces spec.provider (inline provider settings now live in the NodeClass)',
    });
  if (spec.providerRef !== undefined)
    notes.push({
      path: ['spec', 'template', 'spec', 'nodeClassRef'],
      comment: `replaces spec.providerRef ${JSON.stringify(spec.providerRef)}`,
    });
}

/** The NodePool for a Provisioner, pointing at `nodeClassRef`. */
export function convertProvisioner(
  provisioner: KubeObject,
  nodeClassRef: { group: string; kind: string; name: string },
  notes: ConvertNote[],
): KubeObject {
  const spec = asRecord(provisioner.spec) ?? {};
  const requirements = asArray(spec.requirements)
    .map((r, i) => convertRequirement(r, i, notes))
    .filter((r): r is Requirement => r !== undefined);
  const template: KubeObject = { nodeClassRef, requirements };
  for (const name of ['taints', 'startupTaints'] as const) if (Array.isArray(spec[name])) template[name] = spec[name];
  const expire = seconds(spec.ttlSecondsUntilExpired);
  if (expire) {
    template.expireAfter = expire;
    notes.push({
      path: ['spec', 'template', 'spec', 'expireAfter'],
      comment: `from ttlSecondsUntilExpired: ${String(spec.ttlSecondsUntilExpired)}`,
    });
  }
  const nodePoolSpec: KubeObject = {
    template: { ...(asRecord(spec.labels) ? { metadata: { labels: spec.labels } } : {}), spec: template },
    disruption: disruptionOf(spec, notes),
  };
  const limits = asRecord(field(spec, 'limits', 'resources'));
  if (limits) {
    nodePoolSpec.limits = limits;
    notes.push({ path: ['spec', 'limits'], comment: 'from limits.resources' });
  }
  if (typeof spec.weight === 'number') nodePoolSpec.weight = spec.weight;
  droppedFields(spec, notes);
  notes.push({ path: [], comment: `converted from karpenter.sh/v1alpha5 Provisioner ${JSON.stringify(nameOf(provisioner))}` });
  return { apiVersion: 'karpenter.sh/v1', kind: 'NodePool', metadata: { name: nameOf(provisioner) }, spec: nodePoolSpec };
}

/**
 * A NodePool of GPU flavors only, as the Scaleway GPU controller made GPU instances only: the requirement keeps
 * it from launching anything else, the taint keeps pods that ask for no GPU off its (costly) nodes.
 */
export function gpuOnly(pool: KubeObject, notes: ConvertNote[]): void {
  const template = asRecord(field(pool, 'spec', 'template', 'spec')) as KubeObject;
  template.requirements = [...asArray(template.requirements), { key: LabelInstanceGPUName, operator: 'Exists' }];
  const taints = asArray(template.taints);
  if (!taints.some((t) => asRecord(t)?.key === GpuNodeTaint.key)) template.taints = [...taints, { ...GpuNodeTaint }];
  notes.push({
    path: ['spec', 'template', 'spec', 'requirements'],
    comment: `the controller made GPU instances only: ${LabelInstanceGPUName} Exists keeps this NodePool to GPU flavors`,
  });
  notes.push({
    path: ['spec', 'template', 'spec', 'taints'],
    comment: `${GpuNodeTaint.key}=${GpuNodeTaint.value}:${GpuNodeTaint.effect} keeps pods that ask for no GPU off these nodes; GPU pods tolerate it (convert adds the toleration to the pods it is given), as on GKE and EKS GPU node groups`,
  });
}
