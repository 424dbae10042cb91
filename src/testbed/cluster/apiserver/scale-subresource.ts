/**
 * The `scale` subresource (autoscaling/v1 Scale), as `kubectl scale` and autoscalers use it: a view of the
 * parent's replicas and pod selector; writes change only the replicas at the declared path, through the same
 * update path as the object itself (admission, generation, validation, optimistic concurrency).
 */
import { type JsonValue } from '../../../util/json-patch.js';
import { badRequest, conflict, invalid, staleObjectMessage } from './errors.js';
import { type KubeObject } from './kube-object.js';
import { formatSelector } from './label-selector.js';
import { type ObjectService } from './object-service.js';
import { applyPatch, type PatchType } from './patching.js';
import { type ResourceType, type ScaleSpec } from './resource-type.js';
import { type WriteContext } from './write-context.js';

type Obj = Record<string, unknown>;

function steps(path: string): string[] {
  return path.replace(/^\./, '').split('.');
}

function readPath(obj: unknown, path: string): unknown {
  return steps(path).reduce<unknown>((v, key) => (typeof v === 'object' && v !== null ? (v as Obj)[key] : undefined), obj);
}

function writePath(obj: Obj, path: string, value: unknown): void {
  const keys = steps(path);
  const last = keys.pop() ?? '';
  let at = obj;
  for (const key of keys) {
    if (typeof at[key] !== 'object' || at[key] === null) at[key] = {};
    at = at[key] as Obj;
  }
  at[last] = value;
}

function selectorOf(obj: KubeObject, spec: ScaleSpec): string | undefined {
  if (!spec.labelSelectorPath) return undefined;
  const value = readPath(obj, spec.labelSelectorPath);
  if (typeof value === 'string') return value;
  return typeof value === 'object' && value !== null ? formatSelector(value) : undefined;
}

function scaleSpecOf(type: ResourceType): ScaleSpec {
  if (!type.scale) throw badRequest(`${type.plural} has no scale subresource`);
  return type.scale;
}

/** The Scale of an object: its identity, the replicas it asks for, the replicas it has, its pods' selector. */
export function toScale(type: ResourceType, obj: KubeObject): KubeObject {
  const spec = scaleSpecOf(type);
  const { name, namespace, uid, resourceVersion, creationTimestamp } = obj.metadata;
  const selector = selectorOf(obj, spec);
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name, ...(namespace ? { namespace } : {}), uid, resourceVersion, creationTimestamp },
    spec: { replicas: Number(readPath(obj, spec.specReplicasPath) ?? 0) },
    status: { replicas: Number(readPath(obj, spec.statusReplicasPath) ?? 0), ...(selector !== undefined ? { selector } : {}) },
  };
}

const scaleType = (type: ResourceType): ResourceType => ({ ...type, group: 'autoscaling', kind: 'Scale', plural: `${type.plural}/scale` });

export class ScaleSubresource {
  constructor(private readonly objects: ObjectService) {}

  get(type: ResourceType, namespace: string, name: string): KubeObject {
    return toScale(type, this.objects.get(type, namespace, name));
  }

  /** PUT of a whole Scale: only spec.replicas is taken; a resourceVersion in it is a precondition. */
  async update(type: ResourceType, namespace: string, name: string, body: unknown, ctx: WriteContext): Promise<KubeObject> {
    const current = this.objects.get(type, namespace, name);
    const scale = checkScale(type, name, body);
    const wanted = scale.metadata.resourceVersion;
    if (wanted && wanted !== current.metadata.resourceVersion) throw conflict(scaleType(type), name, staleObjectMessage);
    const next = structuredClone(current);
    writePath(next as unknown as Obj, scaleSpecOf(type).specReplicasPath, (scale.spec as { replicas: number }).replicas);
    return toScale(type, await this.objects.replace(type, current, next, 'scale', ctx));
  }

  async patch(
    type: ResourceType,
    namespace: string,
    name: string,
    patchType: PatchType,
    patch: JsonValue,
    ctx: WriteContext,
  ): Promise<KubeObject> {
    const current = this.get(type, namespace, name);
    const patched = applyPatch(scaleType(type), current, patchType === 'strategic' ? 'merge' : patchType, patch);
    if ((patch as { metadata?: { resourceVersion?: string } } | null)?.metadata?.resourceVersion === undefined)
      patched.metadata.resourceVersion = undefined;
    return this.update(type, namespace, name, patched, ctx);
  }
}

function checkScale(type: ResourceType, name: string, body: unknown): KubeObject {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('the request body must be a JSON object');
  const scale = body as KubeObject;
  if (scale.kind !== undefined && scale.kind !== 'Scale')
    throw badRequest(`the kind in the data (${String(scale.kind)}) does not match the expected kind (Scale)`);
  scale.metadata ??= {};
  const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw invalid(scaleType(type), name, [
      { field: 'spec.replicas', message: `Invalid value: ${JSON.stringify(replicas ?? null)}: must be greater than or equal to 0` },
    ]);
  }
  return scale;
}
