/**
 * Field selectors (`metadata.name=x,spec.nodeName!=`) limited, as in kube-apiserver, to the fields each
 * resource indexes; an unknown field is a 400 just like the real server's "field label not supported".
 */
import { badRequest } from './errors.js';
import { type ResourceType } from './resource-type.js';
import { type KubeObject } from './kube-object.js';

export interface FieldRequirement {
  field: string;
  equals: boolean;
  value: string;
}

type FieldGetter = (obj: KubeObject) => string | undefined;

const str = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : String(v));
const path =
  (...keys: string[]): FieldGetter =>
  (obj) => {
    let current: unknown = obj;
    for (const k of keys) current = (current as Record<string, unknown> | undefined)?.[k];
    return str(current);
  };

const common: Record<string, FieldGetter> = {
  'metadata.name': path('metadata', 'name'),
  'metadata.namespace': path('metadata', 'namespace'),
};

const perResource: Record<string, Record<string, FieldGetter>> = {
  '/pods': {
    'spec.nodeName': path('spec', 'nodeName'),
    'spec.schedulerName': path('spec', 'schedulerName'),
    'spec.serviceAccountName': path('spec', 'serviceAccountName'),
    'spec.restartPolicy': path('spec', 'restartPolicy'),
    'status.phase': path('status', 'phase'),
    'status.podIP': path('status', 'podIP'),
    'status.nominatedNodeName': path('status', 'nominatedNodeName'),
  },
  '/nodes': { 'spec.unschedulable': (o) => str((o.spec as Record<string, unknown> | undefined)?.unschedulable ?? false) },
  '/events': {
    'involvedObject.kind': path('involvedObject', 'kind'),
    'involvedObject.namespace': path('involvedObject', 'namespace'),
    'involvedObject.name': path('involvedObject', 'name'),
    'involvedObject.uid': path('involvedObject', 'uid'),
    'involvedObject.apiVersion': path('involvedObject', 'apiVersion'),
    'involvedObject.resourceVersion': path('involvedObject', 'resourceVersion'),
    'involvedObject.fieldPath': path('involvedObject', 'fieldPath'),
    reason: path('reason'),
    reportingComponent: path('reportingComponent'),
    source: path('source', 'component'),
    type: path('type'),
  },
  '/secrets': { type: path('type') },
  '/namespaces': { 'status.phase': path('status', 'phase') },
  'resource.k8s.io/resourceslices': { 'spec.nodeName': path('spec', 'nodeName'), 'spec.driver': path('spec', 'driver') },
};

function gettersFor(type: ResourceType): Record<string, FieldGetter> {
  return { ...common, ...(perResource[`${type.group}/${type.plural}`] ?? {}) };
}

/** Parses a field selector and checks every field is supported for the resource. */
export function parseFieldSelector(selector: string | undefined | null, type: ResourceType): FieldRequirement[] {
  if (!selector) return [];
  const getters = gettersFor(type);
  return selector
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '')
    .map((term) => {
      const m = /^([^!=]+?)\s*(==|=|!=)\s*(.*)$/.exec(term);
      if (!m) throw badRequest(`invalid selector: '${selector}'; can't understand '${term}'`);
      const field = m[1] ?? '';
      if (!getters[field]) throw badRequest(`field label not supported: ${field}`);
      return { field, equals: m[2] !== '!=', value: m[3] ?? '' };
    });
}

export function matchesFields(obj: KubeObject, type: ResourceType, reqs: readonly FieldRequirement[]): boolean {
  if (reqs.length === 0) return true;
  const getters = gettersFor(type);
  return reqs.every((r) => {
    const actual = getters[r.field]?.(obj) ?? '';
    return r.equals ? actual === r.value : actual !== r.value;
  });
}
