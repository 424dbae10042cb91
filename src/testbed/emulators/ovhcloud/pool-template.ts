/**
 * `cloud.kube.NodePoolTemplate`: when a template is sent, all five inner fields are required
 * (metadata.labels, metadata.annotations, metadata.finalizers, spec.taints, spec.unschedulable), which is
 * why the OVH karpenter provider had to stop omitting empty ones.
 */
import { badRequest } from './api-error.js';
import { optionalBoolean, optionalStringArray, requiredObject, stringMap, type Body } from './body-fields.js';
import type { PoolTemplate } from './records.js';

const TAINT_EFFECTS = ['NoExecute', 'NoSchedule', 'PreferNoSchedule'];

export const EMPTY_TEMPLATE: PoolTemplate = {
  metadata: { labels: {}, annotations: {}, finalizers: [] },
  spec: { taints: [], unschedulable: false },
};

function missing(path: string): never {
  throw badRequest(`Missing parameter(s): ${path}`);
}

function parseTaints(spec: Body): PoolTemplate['spec']['taints'] {
  const raw = spec.taints;
  if (raw === undefined || raw === null) missing('template.spec.taints');
  if (!Array.isArray(raw)) throw badRequest(`Invalid value for property template.spec.taints: ${JSON.stringify(raw)} is not an array`);
  return raw.map((taint: unknown, i) => {
    if (typeof taint !== 'object' || taint === null)
      throw badRequest(`Invalid value for property template.spec.taints[${i}]: not an object`);
    const t = taint as Body;
    if (typeof t.key !== 'string' || t.key === '') missing(`template.spec.taints[${i}].key`);
    if (typeof t.effect !== 'string' || !TAINT_EFFECTS.includes(t.effect)) {
      throw badRequest(
        `Invalid value for property template.spec.taints[${i}].effect: ${JSON.stringify(t.effect)}; accepted: ${TAINT_EFFECTS.join(', ')}`,
      );
    }
    if (t.value !== undefined && t.value !== null && typeof t.value !== 'string') {
      throw badRequest(`Invalid value for property template.spec.taints[${i}].value: ${JSON.stringify(t.value)} is not a string`);
    }
    return { key: t.key, value: typeof t.value === 'string' ? t.value : '', effect: t.effect };
  });
}

export function parseTemplate(template: Body): PoolTemplate {
  const metadata = requiredObject(template, 'metadata', 'template.metadata');
  const spec = requiredObject(template, 'spec', 'template.spec');
  const finalizers = optionalStringArray(metadata, 'finalizers', 'template.metadata.finalizers') ?? missing('template.metadata.finalizers');
  const unschedulable = optionalBoolean(spec, 'unschedulable', 'template.spec.unschedulable') ?? missing('template.spec.unschedulable');
  return {
    metadata: {
      labels: stringMap(metadata, 'labels', 'template.metadata.labels'),
      annotations: stringMap(metadata, 'annotations', 'template.metadata.annotations'),
      finalizers,
    },
    spec: { taints: parseTaints(spec), unschedulable },
  };
}
