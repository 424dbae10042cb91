/**
 * The resource.k8s.io/v1 registry strategies the simulation relies on: device requests defaulted as
 * kube-apiserver does (`allocationMode: ExactCount`, `count: 1`), and a ResourceSlice refused unless it names
 * its driver, its pool and exactly one way of saying which nodes reach it.
 */
import { invalid } from './errors.js';
import { type KubeObject } from './kube-object.js';
import { type ResourceType } from './resource-type.js';

type Obj = Record<string, unknown>;

function defaultExactRequest(exactly: Obj): void {
  exactly.allocationMode ??= 'ExactCount';
  if (exactly.allocationMode === 'ExactCount') exactly.count ??= 1;
}

/** Defaults the requests of a claim spec (`spec.devices.requests[]`, with their `firstAvailable` subrequests). */
function defaultClaimSpec(spec: unknown): void {
  const requests = ((spec as Obj | undefined)?.devices as Obj | undefined)?.requests;
  if (!Array.isArray(requests)) return;
  for (const request of requests as Obj[]) {
    if (typeof request.exactly === 'object' && request.exactly !== null) defaultExactRequest(request.exactly as Obj);
    const subrequests = request.firstAvailable;
    if (Array.isArray(subrequests)) for (const sub of subrequests as Obj[]) defaultExactRequest(sub);
  }
}

export function defaultDraObject(type: ResourceType, obj: KubeObject): void {
  if (type.group !== 'resource.k8s.io') return;
  if (type.plural === 'resourceclaims') defaultClaimSpec(obj.spec);
  if (type.plural === 'resourceclaimtemplates') defaultClaimSpec((obj.spec as Obj | undefined)?.spec);
}

const nodeChoices = ['nodeName', 'nodeSelector', 'allNodes', 'perDeviceNodeSelection'];

export function validateDraObject(type: ResourceType, obj: KubeObject): void {
  if (type.group !== 'resource.k8s.io' || type.plural !== 'resourceslices') return;
  const spec = (obj.spec ?? {}) as Obj;
  const causes: Array<{ field: string; message: string; reason?: string }> = [];
  if (typeof spec.driver !== 'string' || spec.driver === '')
    causes.push({ field: 'spec.driver', message: 'Required value', reason: 'FieldValueRequired' });
  const pool = spec.pool as Obj | undefined;
  if (typeof pool?.name !== 'string' || pool.name === '')
    causes.push({ field: 'spec.pool.name', message: 'Required value', reason: 'FieldValueRequired' });
  const chosen = nodeChoices.filter((k) => spec[k] !== undefined && spec[k] !== null && spec[k] !== false && spec[k] !== '');
  if (chosen.length !== 1) {
    causes.push({
      field: 'spec',
      message: `Invalid value: {${chosen.join(', ')}}: exactly one of \`nodeName\`, \`nodeSelector\`, \`allNodes\`, \`perDeviceNodeSelection\` is required`,
      reason: 'FieldValueInvalid',
    });
  }
  if (causes.length > 0) throw invalid(type, obj.metadata.name ?? '', causes);
}
