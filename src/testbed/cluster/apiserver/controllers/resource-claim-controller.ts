/**
 * kube-controller-manager's resourceclaim controller: a pod entry naming a ResourceClaimTemplate gets a
 * ResourceClaim of its own (`<pod>-<claim>-<random>`, controller ownerReference to the pod, annotation
 * `resource.kubernetes.io/pod-claim-name`), recorded in the pod's `status.resourceClaimStatuses`. Pods that are
 * gone or finished leave their claims' `status.reservedFor`; a claim nobody reserves any more is deallocated
 * (its allocation and the scheduler's delete-protection finalizer removed), and a generated claim whose pod
 * finished is deleted.
 */
import { type Deleter } from '../deletion.js';
import { type KubeObject, keyOf, objectKey } from '../kube-object.js';
import { type ObjectService } from '../object-service.js';
import { type StoreEvent } from '../object-store.js';
import { type ResourceRegistry } from '../resource-registry.js';
import { type ResourceType } from '../resource-type.js';
import { systemContext } from '../write-context.js';
import { FinalizerDeleteProtection } from '../../scheduler/dra/types.js';
import { type Controller } from './controller.js';
import { controllerOf, controllerRef } from './workload-helpers.js';
import { WorkQueue } from './work-queue.js';

export const AnnotationPodClaimName = 'resource.kubernetes.io/pod-claim-name';
const claimsKey = 'resource.k8s.io/resourceclaims';
/** Leaves room for `-` and the five random characters in a 63-character name. */
const maxBaseLength = 57;

interface PodClaimEntry {
  name: string;
  resourceClaimName?: string;
  resourceClaimTemplateName?: string;
}

interface ClaimStatus {
  allocation?: unknown;
  reservedFor?: Array<{ resource?: string; name?: string; uid?: string }>;
}

function podClaimEntries(pod: KubeObject): PodClaimEntry[] {
  return ((pod.spec as { resourceClaims?: PodClaimEntry[] } | undefined)?.resourceClaims ?? []).filter((c) => typeof c.name === 'string');
}

function claimStatuses(pod: KubeObject): Array<{ name: string; resourceClaimName?: string }> {
  return (
    (pod.status as { resourceClaimStatuses?: Array<{ name: string; resourceClaimName?: string }> } | undefined)?.resourceClaimStatuses ?? []
  );
}

function isFinished(pod: KubeObject): boolean {
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/** The generated claim's base name: both parts cut in proportion when together they are too long. */
export function generatedClaimBase(podName: string, claimName: string): string {
  const joined = `${podName}-${claimName}`;
  if (joined.length <= maxBaseLength) return joined;
  const cut = (s: string): string => s.slice(0, Math.floor((s.length * maxBaseLength) / joined.length));
  return `${cut(podName)}-${cut(claimName)}`;
}

export class ResourceClaimController implements Controller {
  readonly name = 'resourceclaim-controller';
  private readonly queue = new WorkQueue((key) => (key.startsWith('pod:') ? this.syncPod(key.slice(4)) : this.syncClaim(key.slice(6))));
  private readonly ctx = systemContext('resourceclaim-controller');

  constructor(
    private readonly objects: ObjectService,
    private readonly deleter: Deleter,
    private readonly registry: ResourceRegistry,
  ) {}

  observe(event: StoreEvent): void {
    if (event.storageKey === claimsKey) {
      if (event.type !== 'DELETED') this.queue.add(`claim:${keyOf(event.object)}`);
      return;
    }
    if (event.storageKey === 'resource.k8s.io/resourceclaimtemplates' && event.type === 'ADDED') {
      this.retryPodsWaitingFor(event.object);
      return;
    }
    if (event.storageKey !== '/pods' || podClaimEntries(event.object).length === 0) return;
    if (event.type !== 'DELETED') this.queue.add(`pod:${keyOf(event.object)}`);
    if (event.type === 'DELETED' || isFinished(event.object)) this.releaseClaimsOf(event.object);
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  get busy(): boolean {
    return this.queue.busy;
  }

  get errors(): readonly Error[] {
    return this.queue.errors;
  }

  stop(): void {
    this.queue.stop();
  }

  private type(group: string, plural: string): ResourceType {
    return this.registry.find(group, 'v1', plural) as ResourceType;
  }

  private retryPodsWaitingFor(template: KubeObject): void {
    for (const pod of this.objects.store.values('/pods')) {
      if (pod.metadata.namespace !== template.metadata.namespace) continue;
      if (podClaimEntries(pod).some((e) => e.resourceClaimTemplateName === template.metadata.name)) this.queue.add(`pod:${keyOf(pod)}`);
    }
  }

  /** Every claim that lists the pod in reservedFor, or that it owns, is looked at again. */
  private releaseClaimsOf(pod: KubeObject): void {
    const uid = pod.metadata.uid ?? '';
    for (const claim of this.objects.store.values(claimsKey)) {
      const status = claim.status as ClaimStatus | undefined;
      if (status?.reservedFor?.some((r) => r.uid === uid) || controllerOf(claim)?.uid === uid) this.queue.add(`claim:${keyOf(claim)}`);
    }
  }

  private async syncPod(key: string): Promise<void> {
    const pod = this.objects.store.get('/pods', key);
    if (!pod || pod.metadata.deletionTimestamp || isFinished(pod)) return;
    const recorded = new Map(claimStatuses(pod).map((s) => [s.name, s]));
    const added: Array<{ name: string; resourceClaimName: string }> = [];
    for (const entry of podClaimEntries(pod)) {
      if (!entry.resourceClaimTemplateName || recorded.has(entry.name)) continue;
      const claimName = this.ownedClaim(pod, entry.name) ?? (await this.createClaim(pod, entry));
      if (claimName) added.push({ name: entry.name, resourceClaimName: claimName });
    }
    if (added.length === 0) return;
    const current = this.objects.store.get('/pods', key);
    if (!current || current.metadata.uid !== pod.metadata.uid) return;
    const status = { ...((current.status as object | undefined) ?? {}), resourceClaimStatuses: [...claimStatuses(current), ...added] };
    await this.objects.replace(this.type('', 'pods'), current, { ...structuredClone(current), status }, 'status', this.ctx);
  }

  /** A claim this pod already owns for the entry (created before its status was written). */
  private ownedClaim(pod: KubeObject, entryName: string): string | undefined {
    return this.objects.store
      .dependentsOf(pod.metadata.uid ?? '')
      .find((d) => d.storageKey === claimsKey && d.object.metadata.annotations?.[AnnotationPodClaimName] === entryName)?.object.metadata
      .name;
  }

  private async createClaim(pod: KubeObject, entry: PodClaimEntry): Promise<string | undefined> {
    const namespace = pod.metadata.namespace ?? '';
    const template = this.objects.store.get(
      'resource.k8s.io/resourceclaimtemplates',
      objectKey(namespace, entry.resourceClaimTemplateName ?? ''),
    );
    // Without its template the pod waits: the scheduler reports the claim missing, and a later template event retries.
    if (!template) return undefined;
    const templateSpec = (template.spec ?? {}) as {
      metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
      spec?: unknown;
    };
    const claim: KubeObject = {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: {
        generateName: `${generatedClaimBase(pod.metadata.name ?? '', entry.name)}-`,
        namespace,
        ownerReferences: [controllerRef({ ...pod, apiVersion: 'v1', kind: 'Pod' })],
        annotations: { ...(templateSpec.metadata?.annotations ?? {}), [AnnotationPodClaimName]: entry.name },
        ...(templateSpec.metadata?.labels ? { labels: templateSpec.metadata.labels } : {}),
      },
      spec: structuredClone(templateSpec.spec ?? {}),
    };
    const created = await this.objects.create(this.type('resource.k8s.io', 'resourceclaims'), namespace, claim, this.ctx);
    return created.metadata.name;
  }

  private podStillUses(namespace: string, ref: { name?: string; uid?: string }): boolean {
    const pod = this.objects.store.get('/pods', objectKey(namespace, ref.name ?? ''));
    return pod !== undefined && pod.metadata.uid === ref.uid && !isFinished(pod);
  }

  private async syncClaim(key: string): Promise<void> {
    const claim = this.objects.store.get(claimsKey, key);
    if (!claim) return;
    const namespace = claim.metadata.namespace ?? '';
    const owner = controllerOf(claim);
    if (owner?.kind === 'Pod' && !claim.metadata.deletionTimestamp) {
      const pod = this.objects.store.get('/pods', objectKey(namespace, owner.name));
      if (pod?.metadata.uid === owner.uid && isFinished(pod)) {
        await this.deleter.delete(this.type('resource.k8s.io', 'resourceclaims'), namespace, claim.metadata.name ?? '', {}, this.ctx);
        return;
      }
    }
    await this.release(claim);
  }

  /** Drops reservations of pods that no longer use the claim; deallocates it when none is left. */
  private async release(claim: KubeObject): Promise<void> {
    const namespace = claim.metadata.namespace ?? '';
    const status = (claim.status ?? {}) as ClaimStatus;
    const reservedFor = status.reservedFor ?? [];
    const kept = reservedFor.filter((r) => r.resource !== 'pods' || this.podStillUses(namespace, r));
    const finalizers = claim.metadata.finalizers ?? [];
    // Between the scheduler's finalizer write and its status write the claim is neither allocated nor reserved:
    // only an allocation nobody reserves, or a claim being deleted, is let go.
    const unused = status.allocation !== undefined || Boolean(claim.metadata.deletionTimestamp);
    const deallocate = kept.length === 0 && unused && finalizers.includes(FinalizerDeleteProtection);
    if (kept.length === reservedFor.length && !deallocate) return;
    const type = this.type('resource.k8s.io', 'resourceclaims');
    const nextStatus: ClaimStatus = { ...status, reservedFor: kept };
    if (kept.length === 0) delete nextStatus.reservedFor;
    if (deallocate) delete nextStatus.allocation;
    const withStatus = await this.objects.replace(type, claim, { ...structuredClone(claim), status: nextStatus }, 'status', this.ctx);
    if (!deallocate) return;
    const next = structuredClone(withStatus);
    next.metadata.finalizers = finalizers.filter((f) => f !== FinalizerDeleteProtection);
    await this.objects.replace(type, withStatus, next, '', this.ctx);
  }
}
