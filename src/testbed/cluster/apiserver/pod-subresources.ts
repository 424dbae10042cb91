/**
 * `pods/binding` (what a scheduler posts) and `pods/eviction` (policy/v1 Eviction honouring PDBs, with
 * kube-apiserver's 429 wording when a budget blocks).
 */
import { type Clock } from '../../../util/clock.js';
import { type Deleter, type DeleteOptions } from './deletion.js';
import { ApiError, badRequest, conflict } from './errors.js';
import { type KubeObject } from './kube-object.js';
import { isoTime } from './object-meta.js';
import { type ObjectService } from './object-service.js';
import { computePdbStatus, isPodReady, pdbSelects, pdbStatusObject } from './pdb-status.js';
import { type ResourceRegistry } from './resource-registry.js';
import { type ResourceType, storageKey } from './resource-type.js';
import { type WriteContext } from './write-context.js';

export const successStatus = (code: number, details?: Record<string, unknown>) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Success',
  code,
  ...(details ? { details } : {}),
});

export class PodSubresources {
  constructor(
    private readonly objects: ObjectService,
    private readonly deleter: Deleter,
    private readonly registry: ResourceRegistry,
    private readonly clock: Clock,
  ) {}

  private get podType(): ResourceType {
    return this.registry.find('', 'v1', 'pods') as ResourceType;
  }

  async bind(namespace: string, name: string, body: unknown, ctx: WriteContext): Promise<object> {
    const binding = body as { metadata?: { name?: string }; target?: { kind?: string; name?: string } } | null;
    if (!binding || typeof binding !== 'object' || !binding.target?.name) throw badRequest('Binding.target.name is required');
    if (binding.metadata?.name && binding.metadata.name !== name)
      throw badRequest(`name in URL (${name}) does not match name in Binding (${binding.metadata.name})`);
    const type = this.podType;
    const pod = this.objects.get(type, namespace, name);
    const bindingType = { ...type, plural: 'pods/binding' };
    if (pod.metadata.deletionTimestamp) throw conflict(bindingType, name, `pod ${name} is being deleted, cannot be assigned to a host`);
    const spec = (pod.spec ?? {}) as { nodeName?: string };
    if (spec.nodeName) throw conflict(bindingType, name, `pod ${name} is already assigned to node "${spec.nodeName}"`);
    await this.objects.admit('CREATE', type, 'binding', { ...binding, metadata: { name, namespace } } as KubeObject, null, ctx);
    if (ctx.dryRun) return successStatus(201);
    const next = structuredClone(pod);
    next.spec = { ...spec, nodeName: binding.target.name };
    const status = (next.status ?? {}) as { conditions?: Array<Record<string, unknown>> };
    const conditions = (status.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
    conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: isoTime(this.clock.now()) });
    next.status = { ...status, conditions };
    this.objects.store.put(storageKey(type), next);
    return successStatus(201);
  }

  async evict(namespace: string, name: string, body: unknown, ctx: WriteContext): Promise<object> {
    const eviction = body as { metadata?: { name?: string }; deleteOptions?: DeleteOptions } | null;
    if (!eviction || typeof eviction !== 'object') throw badRequest('the request body must be a policy/v1 Eviction');
    if (eviction.metadata?.name && eviction.metadata.name !== name) throw badRequest('name in URL does not match name in Eviction object');
    const type = this.podType;
    const pod = this.objects.get(type, namespace, name);
    await this.objects.admit('CREATE', type, 'eviction', { ...eviction, metadata: { name, namespace } } as KubeObject, null, ctx);
    if (pod.metadata.deletionTimestamp) return successStatus(200);
    const phase = (pod.status as { phase?: string } | undefined)?.phase;
    if (phase !== 'Succeeded' && phase !== 'Failed' && phase !== 'Pending') this.checkBudget(pod, ctx);
    await this.deleter.delete(type, namespace, name, eviction.deleteOptions ?? {}, ctx);
    return successStatus(201);
  }

  /** Throws 429 when the pod's PDB allows no disruption; otherwise records the disruption in the PDB status. */
  private checkBudget(pod: KubeObject, ctx: WriteContext): void {
    const pdbType = this.registry.find('policy', 'v1', 'poddisruptionbudgets') as ResourceType;
    const store = this.objects.store;
    const pdbs = [...store.values('policy/poddisruptionbudgets')].filter((pdb) => pdbSelects(pdb, pod));
    if (pdbs.length === 0) return;
    if (pdbs.length > 1)
      throw new ApiError(
        500,
        'InternalError',
        'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      );
    const pdb = pdbs[0] as KubeObject;
    const pods = [...store.values('/pods')].filter((p) => p.metadata.namespace === pod.metadata.namespace);
    const status = computePdbStatus(pdb, pods);
    const healthy = isPodReady(pod);
    // IfHealthyBudget: an unready pod may go when the budget is otherwise met.
    const allowed = healthy ? status.disruptionsAllowed > 0 : status.currentHealthy >= status.desiredHealthy;
    if (!allowed) {
      throw new ApiError(429, 'TooManyRequests', "Cannot evict pod as it would violate the pod's disruption budget.", {
        causes: [
          {
            reason: 'DisruptionBudget',
            message: `The disruption budget ${pdb.metadata.name ?? ''} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently`,
          },
        ],
      });
    }
    if (ctx.dryRun || !healthy) return;
    const next = structuredClone(pdb);
    const disruptedPods = { ...(status.disruptedPods ?? {}), [pod.metadata.name ?? '']: isoTime(this.clock.now()) };
    const recorded = { ...status, disruptionsAllowed: status.disruptionsAllowed - 1, disruptedPods };
    next.status = pdbStatusObject(recorded, pdb.status, isoTime(this.clock.now()));
    this.objects.store.put(storageKey(pdbType), next);
  }
}
