/** Per-kind preparation on create/update, mirroring the built-in registry strategies the service relies on. */
import { defaultDraObject } from './dra-objects.js';
import { type KubeObject } from './kube-object.js';
import { type ResourceType, hasStatusSubresource } from './resource-type.js';

type Obj = Record<string, unknown>;

function encodeStringData(obj: KubeObject): void {
  const stringData = obj.stringData as Record<string, string> | undefined;
  if (!stringData) return;
  const data = { ...((obj.data as Record<string, string> | undefined) ?? {}) };
  for (const [k, v] of Object.entries(stringData)) data[k] = Buffer.from(String(v), 'utf8').toString('base64');
  obj.data = data;
  delete obj.stringData;
}

/** Status a new object starts with: clients cannot set it on create where a status subresource exists. */
function initialStatus(type: ResourceType, obj: KubeObject): unknown {
  const id = `${type.group}/${type.plural}`;
  if (id === '/nodes') return obj.status ?? {};
  if (id === '/namespaces') return { phase: 'Active' };
  if (id === '/pods') return { phase: 'Pending', qosClass: qosClassOf(obj) };
  return hasStatusSubresource(type) ? undefined : obj.status;
}

function qosClassOf(pod: KubeObject): string {
  const containers = ((pod.spec as Obj | undefined)?.containers as Obj[] | undefined) ?? [];
  let anyResources = false;
  let guaranteed = containers.length > 0;
  for (const c of containers) {
    const res = (c.resources as { requests?: Obj; limits?: Obj } | undefined) ?? {};
    const requests = res.requests ?? {};
    const limits = res.limits ?? {};
    if (Object.keys(requests).length + Object.keys(limits).length > 0) anyResources = true;
    for (const r of ['cpu', 'memory']) {
      if (limits[r] === undefined || (requests[r] !== undefined && requests[r] !== limits[r])) guaranteed = false;
    }
  }
  if (!anyResources) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

export function prepareForCreate(type: ResourceType, obj: KubeObject): void {
  const status = initialStatus(type, obj);
  if (status === undefined) delete obj.status;
  else obj.status = status;
  defaultDraObject(type, obj);
  const id = `${type.group}/${type.plural}`;
  if (id === '/secrets') {
    encodeStringData(obj);
    obj.type ??= 'Opaque';
  }
  if (id === '/namespaces') obj.spec = { finalizers: ['kubernetes'], ...((obj.spec as Obj | undefined) ?? {}) };
  if (id === '/pods') {
    const spec = (obj.spec ?? {}) as Obj;
    spec.schedulerName ??= 'default-scheduler';
    spec.restartPolicy ??= 'Always';
    spec.terminationGracePeriodSeconds ??= 30;
    spec.priority ??= 0;
    obj.spec = spec;
  }
}

export function prepareForUpdate(type: ResourceType, obj: KubeObject): void {
  if (type.group === '' && type.plural === 'secrets') encodeStringData(obj);
  defaultDraObject(type, obj);
}
