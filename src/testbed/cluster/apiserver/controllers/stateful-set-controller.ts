/** Keeps a StatefulSet's replicas as ordinal pods `<name>-0…<name>-(n-1)`, removing the highest first. */
import { type KubeObject, keyOf } from '../kube-object.js';
import { type Deleter } from '../deletion.js';
import { type ObjectService } from '../object-service.js';
import { type StoreEvent } from '../object-store.js';
import { type ResourceRegistry } from '../resource-registry.js';
import { type ResourceType } from '../resource-type.js';
import { systemContext } from '../write-context.js';
import { type Controller } from './controller.js';
import { type PodTemplate, controllerOf, countReady, podFromTemplate, replicasOf } from './workload-helpers.js';
import { WorkQueue } from './work-queue.js';

const stsKey = 'apps/statefulsets';

export class StatefulSetController implements Controller {
  readonly name = 'statefulset-controller';
  private readonly queue = new WorkQueue((key) => this.reconcile(key));
  private readonly ctx = systemContext('statefulset-controller');

  constructor(
    private readonly objects: ObjectService,
    private readonly deleter: Deleter,
    private readonly registry: ResourceRegistry,
  ) {}

  observe(event: StoreEvent): void {
    if (event.storageKey === stsKey && event.type !== 'DELETED') this.queue.add(keyOf(event.object));
    if (event.storageKey === '/pods') {
      const owner = controllerOf(event.object);
      if (owner?.kind === 'StatefulSet') this.queue.add(`${event.object.metadata.namespace ?? ''}/${owner.name}`);
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

  private async reconcile(key: string): Promise<void> {
    const sts = this.objects.store.get(stsKey, key);
    if (!sts || sts.metadata.deletionTimestamp) return;
    const ns = sts.metadata.namespace ?? '';
    const name = sts.metadata.name ?? '';
    const podType = this.registry.find('', 'v1', 'pods') as ResourceType;
    const want = replicasOf(sts);
    const template = ((sts.spec as { template?: PodTemplate } | undefined)?.template ?? {}) as PodTemplate;
    const pods = this.objects.store
      .dependentsOf(sts.metadata.uid ?? '')
      .filter((d) => d.storageKey === '/pods')
      .map((d) => d.object);
    const byName = new Map(pods.map((p) => [p.metadata.name ?? '', p]));
    for (let i = 0; i < want; i++) {
      const podName = `${name}-${i}`;
      if (byName.has(podName) || this.objects.find(podType, ns, podName)) continue;
      const pod = podFromTemplate(
        template,
        sts,
        { 'apps.kubernetes.io/pod-index': String(i), 'statefulset.kubernetes.io/pod-name': podName },
        { name: podName },
      );
      await this.objects.create(podType, ns, pod, this.ctx);
    }
    const surplus = pods
      .filter((p) => !p.metadata.deletionTimestamp && ordinalOf(p, name) >= want)
      .sort((a, b) => ordinalOf(b, name) - ordinalOf(a, name));
    for (const pod of surplus) await this.deleter.delete(podType, ns, pod.metadata.name ?? '', {}, this.ctx);
    await this.updateStatus(sts);
  }

  private async updateStatus(sts: KubeObject): Promise<void> {
    const latest = this.objects.store.get(stsKey, keyOf(sts));
    if (!latest) return;
    const pods = this.objects.store
      .dependentsOf(latest.metadata.uid ?? '')
      .filter((d) => d.storageKey === '/pods' && !d.object.metadata.deletionTimestamp)
      .map((d) => d.object);
    const ready = countReady(pods);
    const status = {
      observedGeneration: latest.metadata.generation ?? 1,
      replicas: pods.length,
      readyReplicas: ready,
      availableReplicas: ready,
      currentReplicas: pods.length,
      updatedReplicas: pods.length,
    };
    await this.objects.replace(
      this.registry.find('apps', 'v1', 'statefulsets') as ResourceType,
      latest,
      { ...structuredClone(latest), status },
      'status',
      this.ctx,
    );
  }
}

function ordinalOf(pod: KubeObject, setName: string): number {
  const suffix = (pod.metadata.name ?? '').slice(setName.length + 1);
  return /^[0-9]+$/.test(suffix) ? Number(suffix) : -1;
}
