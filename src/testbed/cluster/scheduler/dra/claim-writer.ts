/**
 * The DynamicResources plugin's PreBind: before the pod is bound, each of its claims gets the scheduler's
 * delete-protection finalizer and, in `status`, the allocation found at Reserve (unless it had one) and the pod
 * among `reservedFor`. Writes to one claim are serialized (two pods sharing it are reserved one after the other)
 * and retried on a conflict; a claim allocated meanwhile to other devices fails the bind.
 */
import { type KubeConfig, ResourceV1Api, type ResourceV1ResourceClaim, type V1Pod } from '@kubernetes/client-node';
import { cacheKey } from '../object-cache.js';
import { modelForm, wireForm } from '../../wire-form.js';
import { type DynamicResources } from './dynamic-resources.js';
import { type ConsumerReference, deviceId, FinalizerDeleteProtection, type WireResourceClaim } from './types.js';

const modelType = 'ResourceV1ResourceClaim';
const conflictRetries = 5;

function statusCode(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? Number((error as { code: unknown }).code) : undefined;
}

/** The allocated devices, in a form that compares equal whichever way the claim was read. */
function devicesOf(claim: WireResourceClaim): string {
  return (claim.status?.allocation?.devices.results ?? [])
    .map((r) => `${r.request}=${deviceId(r)}`)
    .sort()
    .join(',');
}

export class ClaimWriter {
  private readonly api: ResourceV1Api;
  private readonly chains = new Map<string, Promise<void>>();

  constructor(
    kubeConfig: KubeConfig,
    private readonly dra: DynamicResources,
  ) {
    this.api = kubeConfig.makeApiClient(ResourceV1Api);
  }

  /** Writes the claim as Reserve left it for this pod. */
  write(target: WireResourceClaim, pod: V1Pod): Promise<void> {
    const key = cacheKey(target);
    const run = (this.chains.get(key) ?? Promise.resolve()).then(() => this.writeNow(target, pod));
    const chain = run.catch(() => undefined);
    this.chains.set(key, chain);
    void chain.then(() => {
      if (this.chains.get(key) === chain) this.chains.delete(key);
    });
    return run;
  }

  private async read(namespace: string, name: string): Promise<WireResourceClaim> {
    return wireForm<WireResourceClaim>(await this.api.readNamespacedResourceClaim({ namespace, name }), modelType);
  }

  private async writeNow(target: WireResourceClaim, pod: V1Pod): Promise<void> {
    const namespace = target.metadata.namespace ?? '';
    const name = target.metadata.name ?? '';
    const consumer: ConsumerReference = { resource: 'pods', name: pod.metadata?.name ?? '', uid: pod.metadata?.uid ?? '' };
    for (let attempt = 0; ; attempt++) {
      try {
        let current = await this.read(namespace, name);
        const allocation = current.status?.allocation ?? target.status?.allocation;
        if (current.status?.allocation && target.status?.allocation && devicesOf(current) !== devicesOf(target)) {
          throw new Error(`resourceclaim ${namespace}/${name} was allocated meanwhile to other devices`);
        }
        if (!(current.metadata.finalizers ?? []).includes(FinalizerDeleteProtection)) {
          const withFinalizer = {
            ...current,
            metadata: { ...current.metadata, finalizers: [...(current.metadata.finalizers ?? []), FinalizerDeleteProtection] },
          };
          current = wireForm(
            await this.api.replaceNamespacedResourceClaim({
              namespace,
              name,
              body: modelForm<ResourceV1ResourceClaim>(withFinalizer, modelType),
            }),
            modelType,
          );
        }
        const reservedFor = current.status?.reservedFor ?? [];
        const status = {
          ...current.status,
          ...(allocation ? { allocation } : {}),
          reservedFor: reservedFor.some((r) => r.uid === consumer.uid) ? reservedFor : [...reservedFor, consumer],
        };
        const written = await this.api.replaceNamespacedResourceClaimStatus({
          namespace,
          name,
          body: modelForm<ResourceV1ResourceClaim>({ ...current, status }, modelType),
        });
        this.dra.written(target, written.metadata?.resourceVersion);
        return;
      } catch (error) {
        if (statusCode(error) !== 409 || attempt >= conflictRetries) throw error;
      }
    }
  }
}
