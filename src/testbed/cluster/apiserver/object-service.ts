/**
 * The write and read semantics of the API server, independent of HTTP: create (generateName, defaults),
 * update with optimistic concurrency, the status subresource, patches, and admission around every write.
 * Deletion (finalizers, cascading) lives in deletion.ts.
 */
import { type Clock } from '../../../util/clock.js';
import { type JsonValue, jsonEqual } from '../../../util/json-patch.js';
import { type Admitter, type AdmissionOperation } from './admission/admission-types.js';
import { prepareForCreate, prepareForUpdate } from './defaulting.js';
import { ApiError, alreadyExists, badRequest, conflict, notFound, staleObjectMessage } from './errors.js';
import { type KubeObject, keyOf, objectKey } from './kube-object.js';
import { type ObjectStore } from './object-store.js';
import { bumpGenerationOnSpecChange, keepImmutableMeta, stampNewObject } from './object-meta.js';
import { applyPatch, type PatchType } from './patching.js';
import { type ResourceType, apiVersionOf, hasStatusSubresource, storageKey } from './resource-type.js';
import { allocateClusterIp, keepClusterIp } from './service-ip.js';
import { applySchemaDefaults } from './structural-defaulting.js';
import { validateObject } from './validation.js';
import { type WriteContext } from './write-context.js';

function isServices(type: ResourceType): boolean {
  return type.group === '' && type.plural === 'services';
}

/** Kinds whose PUT creates a missing object (AllowCreateOnUpdate upstream). */
const createOnUpdate = new Set(['coordination.k8s.io/leases', '/events']);

export class ObjectService {
  constructor(
    readonly store: ObjectStore,
    private readonly clock: Clock,
    private readonly random: () => number,
    private readonly admitter: Admitter,
  ) {}

  get(type: ResourceType, namespace: string, name: string): KubeObject {
    const obj = this.store.get(storageKey(type), objectKey(type.namespaced ? namespace : undefined, name));
    if (!obj) throw notFound(type, name);
    return obj;
  }

  find(type: ResourceType, namespace: string, name: string): KubeObject | undefined {
    return this.store.get(storageKey(type), objectKey(type.namespaced ? namespace : undefined, name));
  }

  async create(type: ResourceType, namespace: string, body: unknown, ctx: WriteContext): Promise<KubeObject> {
    const obj = checkBody(type, body);
    this.placeInNamespace(type, obj, namespace);
    applySchemaDefaults(obj, type.schema);
    prepareForCreate(type, obj);
    if (isServices(type)) allocateClusterIp(type, obj, this.store, this.random);
    stampNewObject(type, obj, this.clock.now(), this.random);
    const admitted = await this.admit('CREATE', type, '', obj, null, ctx);
    const final = admitted ?? obj;
    keepIdentity(final, obj);
    validateObject(type, final);
    if (this.store.get(storageKey(type), keyOf(final))) throw alreadyExists(type, final.metadata.name ?? '');
    if (ctx.dryRun) return final;
    return this.store.put(storageKey(type), final);
  }

  /** PUT on the main resource or on `status`. */
  async update(
    type: ResourceType,
    namespace: string,
    name: string,
    body: unknown,
    subresource: string,
    ctx: WriteContext,
  ): Promise<KubeObject> {
    const incoming = checkBody(type, body);
    if (incoming.metadata.name && incoming.metadata.name !== name) {
      throw badRequest(`the name of the object (${incoming.metadata.name}) does not match the name on the URL (${name})`);
    }
    incoming.metadata.name = name;
    const current = this.find(type, namespace, name);
    if (!current) {
      if (subresource === '' && createOnUpdate.has(storageKey(type))) return this.create(type, namespace, incoming, ctx);
      throw notFound(type, name);
    }
    return this.replace(type, current, incoming, subresource, ctx);
  }

  async patch(
    type: ResourceType,
    namespace: string,
    name: string,
    patchType: PatchType,
    patch: JsonValue,
    subresource: string,
    ctx: WriteContext,
  ): Promise<KubeObject> {
    const current = this.find(type, namespace, name);
    if (!current) {
      if (patchType === 'apply' && subresource === '')
        return this.create(
          type,
          namespace,
          { ...(patch as object), metadata: { ...((patch as { metadata?: object }).metadata ?? {}), name } },
          ctx,
        );
      throw notFound(type, name);
    }
    const patched = applyPatch(type, current, patchType, patch);
    // A patch only conflicts when it names a resourceVersion itself.
    const patchedVersion = (patch as { metadata?: { resourceVersion?: string } } | null)?.metadata?.resourceVersion;
    if (patchType === 'json') patched.metadata.resourceVersion = current.metadata.resourceVersion;
    else if (patchedVersion === undefined) patched.metadata.resourceVersion = current.metadata.resourceVersion;
    return this.replace(type, current, patched, subresource, ctx);
  }

  /** Writes `incoming` over `current`: concurrency check, field ownership, generation, admission, finalization. */
  async replace(
    type: ResourceType,
    current: KubeObject,
    incoming: KubeObject,
    subresource: string,
    ctx: WriteContext,
  ): Promise<KubeObject> {
    const name = current.metadata.name ?? '';
    const wantVersion = incoming.metadata.resourceVersion;
    if (wantVersion !== undefined && wantVersion !== '' && wantVersion !== current.metadata.resourceVersion) {
      throw conflict(type, name, staleObjectMessage);
    }
    const next = subresource === 'status' ? withStatusOnly(current, incoming) : incoming;
    keepImmutableMeta(next, current);
    applySchemaDefaults(next, type.schema);
    next.apiVersion = apiVersionOf(type);
    next.kind = type.kind;
    // `scale` writes the spec's replicas: the same preparation, generation and validation as the main resource.
    const specWrite = subresource === '' || subresource === 'scale';
    if (specWrite && hasStatusSubresource(type)) {
      if (current.status === undefined) delete next.status;
      else next.status = current.status;
    }
    if (specWrite) {
      prepareForUpdate(type, next);
      if (isServices(type)) keepClusterIp(type, next, current);
      bumpGenerationOnSpecChange(next, current);
    }
    if (current.metadata.deletionTimestamp) rejectNewFinalizers(type, current, next);
    const admitted = (await this.admit('UPDATE', type, subresource, next, current, ctx)) ?? next;
    keepIdentity(admitted, current);
    if (specWrite) validateObject(type, admitted);
    admitted.metadata.resourceVersion = current.metadata.resourceVersion;
    if (jsonEqual(admitted, current)) return current;
    if (ctx.dryRun) return admitted;
    if (admitted.metadata.deletionTimestamp && (admitted.metadata.finalizers ?? []).length === 0) {
      return this.store.remove(storageKey(type), keyOf(current)) ?? admitted;
    }
    return this.store.put(storageKey(type), admitted);
  }

  /** Runs mutating then validating admission; returns the mutated object (or undefined when unchanged). */
  async admit(
    operation: AdmissionOperation,
    type: ResourceType,
    subResource: string,
    object: KubeObject | null,
    oldObject: KubeObject | null,
    ctx: WriteContext,
    options: Record<string, unknown> | null = null,
  ): Promise<KubeObject | undefined> {
    const base = {
      operation,
      type,
      subResource,
      name: (object ?? oldObject)?.metadata.name ?? '',
      namespace: (object ?? oldObject)?.metadata.namespace ?? '',
      oldObject,
      dryRun: ctx.dryRun,
      options,
      userInfo: ctx.userInfo,
    };
    const mutated = await this.admitter.admit({ ...base, object }, 'mutating');
    ctx.warnings.push(...mutated.warnings);
    const validated = await this.admitter.admit({ ...base, object: mutated.object }, 'validating');
    ctx.warnings.push(...validated.warnings);
    return mutated.object === object ? undefined : (mutated.object ?? undefined);
  }

  private placeInNamespace(type: ResourceType, obj: KubeObject, namespace: string): void {
    if (!type.namespaced) {
      delete obj.metadata.namespace;
      return;
    }
    if (obj.metadata.namespace && obj.metadata.namespace !== namespace) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    obj.metadata.namespace = namespace;
    const ns = this.store.get('/namespaces', namespace);
    const nsType = { group: '', plural: 'namespaces' } as ResourceType;
    if (!ns) throw notFound(nsType, namespace);
    if (ns.metadata.deletionTimestamp) {
      throw new ApiError(
        403,
        'Forbidden',
        `${type.plural} "${obj.metadata.name ?? obj.metadata.generateName ?? ''}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`,
      );
    }
  }
}

/** The body must be an object of this kind; returns a private deep copy. */
export function checkBody(type: ResourceType, body: unknown): KubeObject {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('the request body must be a JSON object');
  const obj = structuredClone(body) as KubeObject;
  const expected = apiVersionOf(type);
  if (obj.apiVersion !== undefined && obj.apiVersion !== expected) {
    throw badRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${expected})`);
  }
  if (obj.kind !== undefined && obj.kind !== type.kind) {
    throw badRequest(`the kind in the data (${String(obj.kind)}) does not match the expected kind (${type.kind})`);
  }
  if (obj.metadata === undefined || obj.metadata === null) obj.metadata = {};
  if (typeof obj.metadata !== 'object' || Array.isArray(obj.metadata)) throw badRequest('metadata must be an object');
  return obj;
}

function withStatusOnly(current: KubeObject, incoming: KubeObject): KubeObject {
  const next = structuredClone(current);
  if (incoming.status === undefined) delete next.status;
  else next.status = incoming.status;
  next.metadata.resourceVersion = incoming.metadata.resourceVersion;
  return next;
}

/** Mutating webhooks may not rename an object or move it. */
function keepIdentity(obj: KubeObject, reference: KubeObject): void {
  obj.metadata.name = reference.metadata.name;
  if (reference.metadata.namespace) obj.metadata.namespace = reference.metadata.namespace;
  obj.metadata.uid = reference.metadata.uid;
}

function rejectNewFinalizers(type: ResourceType, current: KubeObject, next: KubeObject): void {
  const before = new Set(current.metadata.finalizers ?? []);
  const added = (next.metadata.finalizers ?? []).filter((f) => !before.has(f));
  if (added.length > 0) {
    throw new ApiError(
      422,
      'Invalid',
      `${type.kind} "${current.metadata.name ?? ''}" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"${added.join('", "')}"}`,
    );
  }
}
