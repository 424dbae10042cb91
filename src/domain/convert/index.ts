/**
 * `convert`: the Karpenter objects users run today → this project's NodePool and NodeClass objects, each
 * field changed or dropped carrying a note. Pure: objects in, documents out.
 */
import { LabelCapacityType } from '../../apis/v1/labels.js';
import { asArray, asRecord, asString, field, groupOf, kindOf, nameOf } from '../admission/object-access.js';
import { LegacyInstanceTypeLabel } from '../admission/rules/pod-selectors.js';
import type { KubeObject } from '../admission/types.js';
import { carryAwsTemplate, convertOvhNodeClass, scalewayNodeClass } from './nodeclasses.js';
import { convertProvisioner, ScalewayGpuCapacityType } from './provisioner.js';
import type { ConvertedDocument, ConvertNote, ConvertOptions } from './types.js';

export type { ConvertedDocument, ConvertNote, ConvertOptions } from './types.js';

export interface ConvertInput {
  source: string;
  object: KubeObject;
}

export interface ConvertResult {
  documents: ConvertedDocument[];
  /** Objects not converted, and why. */
  skipped: { source: string; reason: string }[];
}

const isProvisioner = (o: KubeObject): boolean => o.apiVersion === 'karpenter.sh/v1alpha5' && kindOf(o) === 'Provisioner';
const isOvhProviderClass = (o: KubeObject): boolean => groupOf(o) === 'karpenter.ovhcloud.sh' && kindOf(o) === 'OVHNodeClass';
const isAwsTemplate = (o: KubeObject): boolean => groupOf(o) === 'karpenter.k8s.aws';

/** Whether the Provisioner was written for the Scaleway GPU controller (its capacity type or label). */
function forScalewayGpuController(provisioner: KubeObject): boolean {
  return asArray(field(provisioner, 'spec', 'requirements')).some((r) => {
    const key = asString(asRecord(r)?.key);
    return (key === LabelCapacityType && asArray(asRecord(r)?.values).includes(ScalewayGpuCapacityType)) || key === LegacyInstanceTypeLabel;
  });
}

function convertOne(entry: ConvertInput, inputs: readonly ConvertInput[], options: ConvertOptions, result: ConvertResult): void {
  const provisioner = entry.object;
  const providerRef = asRecord(field(provisioner, 'spec', 'providerRef'));
  const ovhClass = inputs.find((i) => isOvhProviderClass(i.object) && nameOf(i.object) === asString(providerRef?.name));
  const awsTemplate = inputs.find((i) => isAwsTemplate(i.object) && nameOf(i.object) === asString(providerRef?.name));
  const notes: ConvertNote[] = [];
  if (ovhClass) {
    result.documents.push({
      source: entry.source,
      object: convertProvisioner(
        provisioner,
        { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: nameOf(ovhClass.object) },
        notes,
      ),
      notes,
    });
    return;
  }
  if (!forScalewayGpuController(provisioner)) {
    result.skipped.push({
      source: entry.source,
      reason: `Provisioner ${JSON.stringify(nameOf(provisioner))}: no cloud to convert to (neither the Scaleway GPU controller's capacity type "${ScalewayGpuCapacityType}" nor a providerRef to an OVHNodeClass in the input)`,
    });
    return;
  }
  const classNotes: ConvertNote[] = [];
  const nodeClass = scalewayNodeClass(nameOf(provisioner), options, classNotes);
  if (awsTemplate) carryAwsTemplate(awsTemplate.object, nodeClass, classNotes);
  result.documents.push({ source: entry.source, object: nodeClass, notes: classNotes });
  notes.push({
    path: ['spec', 'template', 'spec', 'requirements'],
    comment:
      'the controller made GPU instances only; to keep it so add {key: karpenter-eu.io/instance-gpu-name, operator: Exists} (the webhook then taints the nodes nvidia.com/gpu, so pods need that toleration)',
  });
  result.documents.push({
    source: entry.source,
    object: convertProvisioner(
      provisioner,
      { group: 'karpenter.scaleway.sh', kind: 'ScalewayNodeClass', name: nameOf(provisioner) },
      notes,
    ),
    notes,
  });
}

export function convertObjects(inputs: readonly ConvertInput[], options: Omit<ConvertOptions, 'secrets'> = {}): ConvertResult {
  const full: ConvertOptions = { ...options, secrets: inputs.filter((i) => kindOf(i.object) === 'Secret').map((i) => i.object) };
  const result: ConvertResult = { documents: [], skipped: [] };
  for (const entry of inputs) {
    if (isProvisioner(entry.object)) convertOne(entry, inputs, full, result);
    else if (isOvhProviderClass(entry.object)) {
      const notes: ConvertNote[] = [];
      result.documents.push({ source: entry.source, object: convertOvhNodeClass(entry.object, notes), notes });
    } else if (!isAwsTemplate(entry.object) && kindOf(entry.object) !== 'Secret') {
      result.skipped.push({
        source: entry.source,
        reason: `${kindOf(entry.object) || 'object'} ${JSON.stringify(nameOf(entry.object))}: nothing to convert (kept as it is)`,
      });
    }
  }
  return result;
}
