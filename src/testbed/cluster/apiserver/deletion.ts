/**
 * DELETE semantics: preconditions, admission, finalizers holding the object with a deletionTimestamp,
 * optional graceful pod deletion (for a kubelet simulator to finish), and the propagation policy
 * (Orphan strips ownerReferences now; Background/Foreground leave dependents to the garbage collector).
 */
import { type Clock } from '../../../util/clock.js';
import { badRequest, conflict } from './errors.js';
import { type KubeObject, keyOf } from './kube-object.js';
import { isoTime } from './object-meta.js';
import { type ObjectService } from './object-service.js';
import { type ResourceType, storageKey } from './resource-type.js';
import { type WriteContext } from './write-context.js';

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  preconditions?: { uid?: string; resourceVersion?: string };
}

export function parseDeleteOptions(body: unknown, query: URLSearchParams): DeleteOptions {
  const options: DeleteOptions = {};
  if (body !== undefined && body !== null) {
    if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('the request body must be a DeleteOptions object');
    Object.assign(options, body);
  }
  const grace = query.get('gracePeriodSeconds');
  if (grace !== null) options.gracePeriodSeconds = Number(grace);
  const policy = query.get('propagationPolicy');
  if (policy !== null) options.propagationPolicy = policy as DeleteOptions['propagationPolicy'];
  if (options.propagationPolicy && !['Orphan', 'Background', 'Foreground'].includes(options.propagationPolicy)) {
    throw badRequest(`DeletionPropagation "${options.propagationPolicy}" is not supported; accepted: Orphan, Background, Foreground`);
  }
  return options;
}

export class Deleter {
  constructor(
    private readonly objects: ObjectService,
    private readonly clock: Clock,
    private readonly gracefulPodDeletion: boolean,
  ) {}

  /** Returns the object as it stands after the request (with deletionTimestamp when it is held). */
  async delete(type: ResourceType, namespace: string, name: string, options: DeleteOptions, ctx: WriteContext): Promise<KubeObject> {
    const current = this.objects.get(type, namespace, name);
    checkPreconditions(type, current, options);
    await this.objects.admit('DELETE', type, '', null, current, ctx, { ...options });
    if (ctx.dryRun) return current;
    if (options.propagationPolicy === 'Orphan') this.orphanDependents(current);
    const finalizers = current.metadata.finalizers ?? [];
    const graceSeconds = this.graceFor(type, current, options);
    if (finalizers.length === 0 && graceSeconds === 0 && !heldByNamespaceFinalizer(type, current)) {
      return this.objects.store.remove(storageKey(type), keyOf(current)) ?? current;
    }
    if (current.metadata.deletionTimestamp) return current;
    const next = structuredClone(current);
    next.metadata.deletionTimestamp = isoTime(this.clock.now() + graceSeconds * 1000);
    next.metadata.deletionGracePeriodSeconds = graceSeconds;
    next.metadata.generation = (current.metadata.generation ?? 0) + 1;
    if (type.group === '' && type.plural === 'namespaces') next.status = { ...(next.status as object), phase: 'Terminating' };
    return this.objects.store.put(storageKey(type), next);
  }

  /** Pods bound to a node wait for the kubelet when graceful deletion is on; everything else goes at once. */
  private graceFor(type: ResourceType, pod: KubeObject, options: DeleteOptions): number {
    if (!this.gracefulPodDeletion || type.group !== '' || type.plural !== 'pods') return 0;
    const spec = pod.spec as { nodeName?: string; terminationGracePeriodSeconds?: number } | undefined;
    const phase = (pod.status as { phase?: string } | undefined)?.phase;
    if (!spec?.nodeName || phase === 'Succeeded' || phase === 'Failed') return 0;
    return Math.max(0, options.gracePeriodSeconds ?? spec.terminationGracePeriodSeconds ?? 30);
  }

  private orphanDependents(owner: KubeObject): void {
    const uid = owner.metadata.uid ?? '';
    for (const { storageKey: key, object } of this.objects.store.dependentsOf(uid)) {
      const next = structuredClone(object);
      next.metadata.ownerReferences = (next.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
      if (next.metadata.ownerReferences.length === 0) delete next.metadata.ownerReferences;
      this.objects.store.put(key, next);
    }
  }
}

/** A Namespace stays (Terminating) until the namespace controller has emptied it. */
function heldByNamespaceFinalizer(type: ResourceType, obj: KubeObject): boolean {
  return (
    type.group === '' && type.plural === 'namespaces' && ((obj.spec as { finalizers?: string[] } | undefined)?.finalizers?.length ?? 0) > 0
  );
}

function checkPreconditions(type: ResourceType, current: KubeObject, options: DeleteOptions): void {
  const pre = options.preconditions;
  if (!pre) return;
  const name = current.metadata.name ?? '';
  if (pre.uid && pre.uid !== current.metadata.uid) {
    throw conflict(type, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${current.metadata.uid ?? ''}`);
  }
  if (pre.resourceVersion && pre.resourceVersion !== current.metadata.resourceVersion) {
    throw conflict(
      type,
      name,
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${current.metadata.resourceVersion ?? ''}`,
    );
  }
}
