/**
 * Keeps a ReplicaSet's replicas as pods (`<rs>-<random>`, controller ownerReference); scales down
 * unscheduled pods first, then unready, then the newest — the ReplicaSet controller's preference order.
 */
import { type Deleter } from '../deletion.js';
import { type KubeObject, keyOf } from '../kube-object.js';
import { type ObjectService } from '../object-service.js';
import { type StoreEvent } from '../object-store.js';
import { isPodReady } from '../pdb-status.js';
import { type ResourceRegistry } from '../resource-registry.js';
import { type ResourceType } from '../resource-type.js';
import { systemContext } from '../write-context.js';
import { type Controller } from './controller.js';
import { type PodTemplate, controllerOf, countReady, podFromTemplate, replicasOf } from './workload-helpers.js';
import { WorkQueue } from './work-queue.js';

const rsKey = 'apps/replicasets';

function deletionRank(pod: KubeObject): number {
  if (!(pod.spec as { nodeName?: string } | undefined)?.nodeName) return 0;
  return isPodReady(pod) ? 2 : 1;
}

export class ReplicaSetController implements Controller {
  readonly name = 'replicaset-controller';
  private readonly queue = new WorkQueue((key) => this.reconcile(key));
  private readonly ctx = systemContext('replicaset-controller');

  constructor(
    private readonly objects: ObjectService,
    private readonly deleter: Deleter,
    private readonly registry: ResourceRegistry,
  ) {}

  observe(event: StoreEvent): void {
    if (event.storageKey === rsKey && event.type !== 'DELETED') this.queue.add(keyOf(event.object));
    if (event.storageKey === '/pods') {
      const owner = controllerOf(event.object);
      if (owner?.kind === 'ReplicaSet') this.queue.add(`${event.object.metadata.namespace ?? ''}/${owner.name}`);
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

  private type(group: string, version: string, plural: string): ResourceType {
    return this.registry.find(group, version, plural) as ResourceType;
  }

  private async reconcile(key: string): Promise<void> {
    const rs = this.objects.store.get(rsKey, key);
    if (!rs || rs.metadata.deletionTimestamp) return;
    const ns = rs.metadata.namespace ?? '';
    const podType = this.type('', 'v1', 'pods');
    const pods = this.objects.store
      .dependentsOf(rs.metadata.uid ?? '')
      .filter((d) => d.storageKey === '/pods')
      .map((d) => d.object);
    const active = pods.filter((p) => !p.metadata.deletionTimestamp);
    const want = replicasOf(rs);
    const template = ((rs.spec as { template?: PodTemplate } | undefined)?.template ?? {}) as PodTemplate;
    for (let i = active.length; i < want; i++) {
      const pod = podFromTemplate(template, rs, {}, { generateName: `${rs.metadata.name ?? ''}-` });
      await this.objects.create(podType, ns, pod, this.ctx);
    }
    if (active.length > want) {
      const surplus = [...active]
        .sort(
          (a, b) =>
            deletionRank(a) - deletionRank(b) || (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? ''),
        )
        .slice(0, active.length - want);
      for (const pod of surplus) await this.deleter.delete(podType, ns, pod.metadata.name ?? '', {}, this.ctx);
    }
    await this.updateStatus(rs);
  }

  private async updateStatus(rs: KubeObject): Promise<void> {
    const current = this.objects.store.get(rsKey, keyOf(rs));
    if (!current) return;
    const pods = this.objects.store
      .dependentsOf(current.metadata.uid ?? '')
      .filter((d) => d.storageKey === '/pods' && !d.object.metadata.deletionTimestamp)
      .map((d) => d.object);
    const ready = countReady(pods);
    const status = {
      replicas: pods.length,
      fullyLabeledReplicas: pods.length,
      readyReplicas: ready,
      availableReplicas: ready,
      observedGeneration: current.metadata.generation ?? 1,
    };
    const next = { ...structuredClone(current), status };
    await this.objects.replace(this.type('apps', 'v1', 'replicasets'), current, next, 'status', this.ctx);
  }
}
