/**
 * Rolls a Deployment out as one ReplicaSet per pod template (`<deployment>-<pod-template-hash>`), scaling
 * the current one to the desired replicas and older ones to zero (Recreate-like, enough for a simulation).
 */
import { type KubeObject, keyOf } from '../kube-object.js';
import { type ObjectService } from '../object-service.js';
import { type StoreEvent } from '../object-store.js';
import { type ResourceRegistry } from '../resource-registry.js';
import { type ResourceType } from '../resource-type.js';
import { systemContext } from '../write-context.js';
import { type Controller } from './controller.js';
import { type PodTemplate, controllerOf, controllerRef, podTemplateHash, replicasOf } from './workload-helpers.js';
import { WorkQueue } from './work-queue.js';

const deployKey = 'apps/deployments';

export class DeploymentController implements Controller {
  readonly name = 'deployment-controller';
  private readonly queue = new WorkQueue((key) => this.reconcile(key));
  private readonly ctx = systemContext('deployment-controller');

  constructor(
    private readonly objects: ObjectService,
    private readonly registry: ResourceRegistry,
  ) {}

  observe(event: StoreEvent): void {
    if (event.storageKey === deployKey && event.type !== 'DELETED') this.queue.add(keyOf(event.object));
    if (event.storageKey === 'apps/replicasets') {
      const owner = controllerOf(event.object);
      if (owner?.kind === 'Deployment') this.queue.add(`${event.object.metadata.namespace ?? ''}/${owner.name}`);
    }
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

  private get rsType(): ResourceType {
    return this.registry.find('apps', 'v1', 'replicasets') as ResourceType;
  }

  private async reconcile(key: string): Promise<void> {
    const deployment = this.objects.store.get(deployKey, key);
    if (!deployment || deployment.metadata.deletionTimestamp) return;
    const ns = deployment.metadata.namespace ?? '';
    const spec = (deployment.spec ?? {}) as { template?: PodTemplate; selector?: unknown };
    const template = spec.template ?? {};
    const hash = podTemplateHash(template);
    const name = `${deployment.metadata.name ?? ''}-${hash}`;
    const owned = this.objects.store
      .dependentsOf(deployment.metadata.uid ?? '')
      .filter((d) => d.storageKey === 'apps/replicasets')
      .map((d) => d.object);
    const want = replicasOf(deployment);
    let current = owned.find((rs) => rs.metadata.name === name);
    if (!current) {
      const labels = { ...(template.metadata?.labels ?? {}), 'pod-template-hash': hash };
      const rs: KubeObject = {
        metadata: { name, namespace: ns, labels, ownerReferences: [controllerRef(deployment)] },
        spec: {
          replicas: want,
          selector: addHashToSelector(spec.selector, hash),
          template: { ...template, metadata: { ...(template.metadata ?? {}), labels } },
        },
      };
      current = await this.objects.create(this.rsType, ns, rs, this.ctx);
    } else if (replicasOf(current) !== want) {
      current = await this.scale(current, want);
    }
    for (const old of owned) if (old.metadata.name !== name && replicasOf(old) !== 0) await this.scale(old, 0);
    await this.updateStatus(deployment, current);
  }

  private scale(rs: KubeObject, replicas: number): Promise<KubeObject> {
    const next = structuredClone(rs);
    next.spec = { ...(next.spec as object), replicas };
    return this.objects.replace(this.rsType, rs, next, '', this.ctx);
  }

  private async updateStatus(deployment: KubeObject, currentRs: KubeObject): Promise<void> {
    const owned = this.objects.store
      .dependentsOf(deployment.metadata.uid ?? '')
      .filter((d) => d.storageKey === 'apps/replicasets')
      .map((d) => d.object);
    const sum = (field: string) => owned.reduce((n, rs) => n + ((rs.status as Record<string, number> | undefined)?.[field] ?? 0), 0);
    const status = {
      observedGeneration: deployment.metadata.generation ?? 1,
      replicas: sum('replicas'),
      updatedReplicas: (currentRs.status as { replicas?: number } | undefined)?.replicas ?? 0,
      readyReplicas: sum('readyReplicas'),
      availableReplicas: sum('availableReplicas'),
      unavailableReplicas: Math.max(0, replicasOf(deployment) - sum('availableReplicas')),
    };
    const latest = this.objects.store.get(deployKey, keyOf(deployment));
    if (!latest) return;
    await this.objects.replace(
      this.registry.find('apps', 'v1', 'deployments') as ResourceType,
      latest,
      { ...structuredClone(latest), status },
      'status',
      this.ctx,
    );
  }
}

function addHashToSelector(selector: unknown, hash: string): unknown {
  const s = (selector ?? {}) as { matchLabels?: Record<string, string> };
  return { ...s, matchLabels: { ...(s.matchLabels ?? {}), 'pod-template-hash': hash } };
}
