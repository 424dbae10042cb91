/**
 * kube-scheduler's DynamicResources plugin over the simulated cluster: caches of ResourceClaims, ResourceSlices
 * and DeviceClasses (in wire form), claims assumed allocated or reserved before their status write is seen
 * (upstream's assume cache), and per scheduling cycle the view the filters read.
 */
import { type KubeConfig, ResourceV1Api } from '@kubernetes/client-node';
import { cacheKey, ObjectCache } from '../object-cache.js';
import { wireForm } from '../../wire-form.js';
import { DraCycle } from './dra-cycle.js';
import { type DeviceSelectorMatcher, type WireDeviceClass, type WireResourceClaim, type WireResourceSlice } from './types.js';

interface Assumed {
  claim: WireResourceClaim;
  /** The resourceVersion the write answered with; the cache at or past it makes the assumption moot. */
  writtenVersion?: number;
}

export class DynamicResources {
  readonly claims: ObjectCache<WireResourceClaim>;
  readonly slices: ObjectCache<WireResourceSlice>;
  readonly classes: ObjectCache<WireDeviceClass>;
  private readonly assumed = new Map<string, Assumed>();

  constructor(
    kubeConfig: KubeConfig,
    private readonly matches: DeviceSelectorMatcher,
  ) {
    const api = kubeConfig.makeApiClient(ResourceV1Api);
    const base = '/apis/resource.k8s.io/v1';
    this.claims = new ObjectCache<WireResourceClaim>(kubeConfig, `${base}/resourceclaims`, async () => {
      const list = await api.listResourceClaimForAllNamespaces();
      return { ...list, items: list.items.map((o) => wireForm<WireResourceClaim>(o, 'ResourceV1ResourceClaim')) };
    });
    this.slices = new ObjectCache<WireResourceSlice>(kubeConfig, `${base}/resourceslices`, async () => {
      const list = await api.listResourceSlice();
      return { ...list, items: list.items.map((o) => wireForm<WireResourceSlice>(o, 'V1ResourceSlice')) };
    });
    this.classes = new ObjectCache<WireDeviceClass>(kubeConfig, `${base}/deviceclasses`, async () => {
      const list = await api.listDeviceClass();
      return { ...list, items: list.items.map((o) => wireForm<WireDeviceClass>(o, 'V1DeviceClass')) };
    });
    this.claims.onChange((event, claim) => {
      const key = cacheKey(claim);
      const assumed = this.assumed.get(key);
      if (!assumed) return;
      const seen = Number(claim.metadata.resourceVersion ?? 0);
      if (event === 'delete' || (assumed.writtenVersion !== undefined && seen >= assumed.writtenVersion)) this.assumed.delete(key);
    });
  }

  async start(): Promise<void> {
    await Promise.all([this.claims.start(), this.slices.start(), this.classes.start()]);
  }

  async stop(): Promise<void> {
    await Promise.all([this.claims.stop(), this.slices.stop(), this.classes.stop()]);
  }

  onChange(listener: () => void): void {
    for (const cache of [this.claims, this.slices, this.classes] as Array<ObjectCache<{ metadata?: object }>>) cache.onChange(listener);
  }

  /** The claims as the scheduler believes them now: the cache, overridden by what it has assumed. */
  currentClaims(): Map<string, WireResourceClaim> {
    const claims = new Map<string, WireResourceClaim>();
    for (const claim of this.claims.values()) claims.set(cacheKey(claim), claim);
    for (const [key, a] of this.assumed) claims.set(key, a.claim);
    return claims;
  }

  cycle(): DraCycle {
    return new DraCycle(this.currentClaims(), [...this.slices.values()], [...this.classes.values()], this.matches, (claim) =>
      this.assume(claim),
    );
  }

  assume(claim: WireResourceClaim): void {
    this.assumed.set(cacheKey(claim), { claim });
  }

  /** The write landed at `resourceVersion`: the assumption lasts until the cache shows it. */
  written(claim: WireResourceClaim, resourceVersion: string | undefined): void {
    const key = cacheKey(claim);
    const a = this.assumed.get(key);
    if (!a) return;
    const version = Number(resourceVersion ?? 0);
    if (Number(this.claims.get(key)?.metadata.resourceVersion ?? 0) >= version) this.assumed.delete(key);
    else a.writtenVersion = version;
  }

  forget(claim: WireResourceClaim): void {
    this.assumed.delete(cacheKey(claim));
  }
}
