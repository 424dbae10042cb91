/**
 * `convert`: the Karpenter objects users run today → this project's NodePool and NodeClass objects, each
 * field changed or dropped carrying a note. Pure: objects in, documents out.
 */
import { LabelCapacityType } from '../../apis/v1/labels.js';
import { asArray, asRecord, asString, field, groupOf, kindOf, nameOf } from '../admission/object-access.js';
import { LegacyInstanceTypeLabel } from '../admission/rules/pod-selectors.js';
import type { KubeObject } from '../admission/types.js';
import { carryAwsTemplate, convertOvhNodeClass, scalewayNodeClass } from './nodeclasses.js';
import { convertWorkload, isWorkload } from './pods.js';
import { convertProvisioner, gpuOnly, ScalewayGpuCapacityType } from './provisioner.js';
import { type PlaceholderField, placeholdersOf } from './secrets.js';
import type { ConvertedDocument, ConvertNote, ConvertOptions } from './types.js';

export type { ConvertedDocument, ConvertNote, ConvertOptions } from './types.js';
export type { PlaceholderField } from './secrets.js';

export interface ConvertInput {
  source: string;
  object: KubeObject;
}

export interface ConvertResult {
  documents: ConvertedDocument[];
  /** Objects not converted, and why. */
  skipped: { source: string; reason: string }[];
  /** Fields of the output still holding a placeholder (`<…>`): the user fills in each. */
  placeholders: PlaceholderField[];
  /** A GPU-only NodePool was converted (its GPU pods need the toleration of its taint). */
  gpuPools?: boolean;
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
  const { nodeClass, secrets } = scalewayNodeClass(nameOf(provisioner), options, classNotes);
  if (awsTemplate) carryAwsTemplate(awsTemplate.object, nodeClass, classNotes);
  for (const secret of secrets)
    if (!result.documents.some((d) => d.object.kind === 'Secret' && nameOf(d.object) === nameOf(secret.object)))
      result.documents.push({ source: entry.source, ...secret });
  result.documents.push({ source: entry.source, object: nodeClass, notes: classNotes });
  const pool = convertProvisioner(
    provisioner,
    { group: 'karpenter.scaleway.sh', kind: 'ScalewayNodeClass', name: nameOf(provisioner) },
    notes,
  );
  gpuOnly(pool, notes);
  result.documents.push({ source: entry.source, object: pool, notes });
  result.gpuPools = true;
}

export function convertObjects(inputs: readonly ConvertInput[], options: Omit<ConvertOptions, 'secrets'> = {}): ConvertResult {
  const full: ConvertOptions = { ...options, secrets: inputs.filter((i) => kindOf(i.object) === 'Secret').map((i) => i.object) };
  const result: ConvertResult = { documents: [], skipped: [], placeholders: [] };
  for (const entry of inputs) {
    if (isProvisioner(entry.object)) convertOne(entry, inputs, full, result);
    else if (isOvhProviderClass(entry.object)) {
      const notes: ConvertNote[] = [];
      result.documents.push({ source: entry.source, object: convertOvhNodeClass(entry.object, notes), notes });
    }
  }
  // Workloads after the NodePools: whether a GPU pod needs the GPU NodePools' toleration depends on them.
  for (const entry of inputs) {
    const notes: ConvertNote[] = [];
    const workload = isWorkload(entry.object) ? convertWorkload(entry.object, result.gpuPools === true, notes) : undefined;
    if (workload) result.documents.push({ source: entry.source, object: workload, notes });
    else if (
      !isProvisioner(entry.object) &&
      !isOvhProviderClass(entry.object) &&
      !isAwsTemplate(entry.object) &&
      kindOf(entry.object) !== 'Secret'
    ) {
      result.skipped.push({
        source: entry.source,
        reason: `${kindOf(entry.object) || 'object'} ${JSON.stringify(nameOf(entry.object))}: nothing to convert (kept as it is)`,
      });
    }
  }
  result.placeholders = placeholdersOf(result.documents.map((d) => d.object));
  return result;
}
