// The fence's wrappers: every write of the Kube port and every call that changes the cloud asks the fence first
// and sends nothing when refused; reads always go through.
import { describe, expect, it } from 'vitest';
import type { KubernetesObject } from '@kubernetes/client-node';
import { FakeCloudProvider } from '../../../src/cloudprovider/fake/fake-cloud-provider.js';
import { fakeInstanceTypes } from '../../../src/cloudprovider/fake/instance-types.js';
import type { CloudProviderNodeClaim } from '../../../src/cloudprovider/types.js';
import { FencedWriteError } from '../../../src/domain/leadership/term.js';
import { Resources } from '../../../src/kube/resources.js';
import type { Kube } from '../../../src/kube/types.js';
import { fencedApiGuard, fencedCloudProvider, fencedKube, LeadershipFence } from '../../../src/operator/fence.js';
import { ScalewayApiCalls, type ScalewayApi } from '../../../src/cloudprovider/scaleway/index.js';
import { FakeClock } from '../../../src/util/clock.js';

/** A Kube that records each call's method name and answers with nothing much. */
function recordingKube(): { kube: Kube; calls: string[] } {
  const calls: string[] = [];
  const answer = (method: string, value: unknown = {}) => {
    calls.push(method);
    return Promise.resolve(value);
  };
  const kube = {
    get: () => answer('get'),
    list: () => answer('list', { items: [], resourceVersion: '1' }),
    create: () => answer('create'),
    patch: () => answer('patch'),
    replace: () => answer('replace'),
    replaceStatus: () => answer('replaceStatus'),
    delete: () => answer('delete', undefined),
    evict: () => answer('evict', undefined),
    createEvent: () => answer('createEvent'),
    patchEvent: () => answer('patchEvent'),
  } as unknown as Kube;
  return { kube, calls };
}

const object: KubernetesObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' } };
const key = { name: 'p', namespace: 'default' };

function everyWrite(kube: Kube): Promise<unknown>[] {
  return [
    kube.create(Resources.Pod, object),
    kube.patch(Resources.Pod, key, { type: 'merge', body: {} }),
    kube.replace(Resources.Pod, object),
    kube.replaceStatus(Resources.Pod, object),
    kube.delete(Resources.Pod, key),
    kube.evict(key),
    kube.createEvent({ metadata: { name: 'e', namespace: 'default' }, involvedObject: {} }),
    kube.patchEvent({ name: 'e', namespace: 'default' }, {}),
  ];
}

describe('LeadershipFence', () => {
  it('opens on a renewal and closes at the renew deadline counted from that attempt, without any call from the lease loop', () => {
    const clock = new FakeClock();
    const fence = new LeadershipFence(clock, 2_000);
    expect(() => fence.guard('creating x')).toThrow('creating x: refused, this replica may not write as the leader (not leading)');
    const startedAt = fence.now();
    clock.step(300);
    fence.renewed(startedAt);
    expect(fence.verdict()).toEqual({ allowed: true });
    clock.step(1_699);
    expect(fence.verdict()).toEqual({ allowed: true });
    clock.step(1);
    expect(() => fence.guard('creating x')).toThrow(FencedWriteError);
    expect(fence.refused()).toBe(2);
  });

  it('never reopens once ended, and an older renewal never moves the deadline back', () => {
    const clock = new FakeClock();
    const fence = new LeadershipFence(clock, 2_000);
    fence.renewed(fence.now());
    clock.step(1_000);
    fence.renewed(fence.now() - 5_000);
    clock.step(999);
    expect(fence.verdict()).toEqual({ allowed: true });
    fence.end('lost the lease');
    fence.renewed(fence.now());
    expect(fence.verdict()).toEqual({ allowed: false, reason: 'leadership ended: lost the lease' });
  });
});

describe('fencedKube', () => {
  it('passes every write while the fence allows it', async () => {
    const clock = new FakeClock();
    const fence = new LeadershipFence(clock, 2_000);
    fence.renewed(fence.now());
    const { kube, calls } = recordingKube();
    await Promise.all(everyWrite(fencedKube(kube, fence)));
    expect(calls).toEqual(['create', 'patch', 'replace', 'replaceStatus', 'delete', 'evict', 'createEvent', 'patchEvent']);
  });

  it('refuses every write past the deadline and sends none of them; reads still go through', async () => {
    const clock = new FakeClock();
    const fence = new LeadershipFence(clock, 2_000);
    fence.renewed(fence.now());
    clock.step(2_000);
    const { kube, calls } = recordingKube();
    const fenced = fencedKube(kube, fence);
    const results = await Promise.allSettled(everyWrite(fenced));
    expect(results.map((r) => r.status === 'rejected' && r.reason instanceof FencedWriteError)).toEqual(Array(8).fill(true));
    expect(calls).toEqual([]);
    await fenced.get(Resources.Pod, key);
    await fenced.list(Resources.Pod);
    expect(calls).toEqual(['get', 'list']);
  });
});

describe('fencedCloudProvider', () => {
  const claim = { metadata: { name: 'default-abc', uid: 'u1' }, spec: { requirements: [] } } as unknown as CloudProviderNodeClaim;

  it('refuses create and delete once fenced and never reaches the cloud; reads go through', async () => {
    const clock = new FakeClock();
    const cloud = new FakeCloudProvider({ instanceTypes: fakeInstanceTypes(2), clock });
    const fence = new LeadershipFence(clock);
    fence.end('lost the lease');
    const fenced = fencedCloudProvider(cloud, fence);
    await expect(fenced.create(claim)).rejects.toThrow(
      'launching the instance of NodeClaim default-abc: refused, this replica may not write as the leader (leadership ended: lost the lease)',
    );
    await expect(fenced.delete(claim)).rejects.toBeInstanceOf(FencedWriteError);
    expect(cloud.createCalls).toEqual([]);
    expect(cloud.deleteCalls).toEqual([]);
    expect(await fenced.list()).toEqual([]);
    expect(fenced.name).toBe('fake');
    expect(fenced.getSupportedNodeClasses()).toEqual(cloud.getSupportedNodeClasses());
  });

  it('passes create through while the fence allows it', async () => {
    const clock = new FakeClock();
    const cloud = new FakeCloudProvider({ instanceTypes: fakeInstanceTypes(2), clock });
    const fenced = fencedCloudProvider(cloud, new LeadershipFence(clock));
    await fenced.create(claim).catch(() => undefined);
    expect(cloud.createCalls).toHaveLength(1);
  });
});

describe('fencedApiGuard', () => {
  /** A Scaleway port whose every call records its name; a class, so the calls live on the prototype. */
  class RecordingScaleway {
    readonly calls: string[] = [];
    readonly zone = 'fr-par-2';
    async getServer(): Promise<string> {
      this.calls.push('getServer');
      return this.zone;
    }
    async powerOn(): Promise<void> {
      this.calls.push('powerOn');
    }
  }

  it('checks each call that changes the cloud right before it is sent, mid-launch too; reads and values pass', async () => {
    const clock = new FakeClock();
    const fence = new LeadershipFence(clock, 2_000);
    fence.renewed(fence.now());
    const inner = new RecordingScaleway();
    const api = fencedApiGuard(fence, 'scaleway')(inner as unknown as ScalewayApi, ScalewayApiCalls);
    await api.powerOn('fr-par-2', 's1', 'DEV1-S');
    clock.step(2_000);
    await expect(api.powerOn('fr-par-2', 's1', 'DEV1-S')).rejects.toThrow(
      'scaleway powerOn: refused, this replica may not write as the leader (the lease was last renewed 2000ms ago, past the renew deadline of 2000ms)',
    );
    expect(await api.getServer('fr-par-2', 's1')).toEqual('fr-par-2');
    expect(inner.calls).toEqual(['powerOn', 'getServer']);
  });
});
