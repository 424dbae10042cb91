import { afterEach, describe, expect, it } from 'vitest';
import type { NodeClaim } from '../../../src/apis/index.js';
import { CreatePendingError, TransientCloudError } from '../../../src/cloudprovider/errors.js';
import { AnnotationLaunchRequested, ReasonAwaitingListing } from '../../../src/controllers/nodeclaim/lifecycle/index.js';
import { AnnotationDeletionReason } from '../../../src/apis/v1/deletion-reasons.js';
import { Resources } from '../../../src/kube/index.js';
import { nodePool, pod, type ProvisioningBed, startProvisioningBed } from '../provisioning/harness.js';

let bed: ProvisioningBed | undefined;

afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

async function pendingClaim(b: ProvisioningBed): Promise<NodeClaim> {
  await b.kube.create(Resources.NodePool, nodePool('default'));
  await b.kube.create(Resources.Pod, pod('web', '1'));
  await b.until('the pod pending in state', () => b.state.snapshot().pendingPods.length === 1);
  const result = await b.provisioner.provision();
  expect(result.created).toHaveLength(1);
  return b.kube.get<NodeClaim>(Resources.NodeClaim, { name: result.created[0] as string });
}

describe('NodeClaim lifecycle', () => {
  it('a restart mid-launch sends the NodeClaim back through create(), which finishes the instance instead of adopting it from list()', async () => {
    bed = await startProvisioningBed({ manual: true });
    const b = bed;
    const claim = await pendingClaim(b);
    const name = claim.metadata?.name ?? '';
    // The previous process wrote its intent, called create, and died before recording the result: what the
    // cloud holds may be half launched (stopped, no user data, no GPU); only create() knows how to finish it.
    await b.kube.patch(
      Resources.NodeClaim,
      { name },
      { type: 'merge', body: { metadata: { annotations: { [AnnotationLaunchRequested]: new Date().toISOString() } } } },
    );
    const first = await b.provider.create(claim);
    b.startControllers();
    const launched = await b.until(
      'the claim initialized',
      async () => {
        const c = await b.kube.get<NodeClaim>(Resources.NodeClaim, { name });
        return c.status?.conditions?.find((x) => x.type === 'Initialized')?.status === 'True' && c;
      },
      20_000,
    );
    expect(launched.status?.providerID).toBe(first.providerID);
    expect(b.provider.createCalls.map((c) => c.metadata?.name)).toEqual([name, name]);
    expect(b.provider.listCalls).toBe(0);
    expect(b.provider.instances.size).toBe(1);
    await b.until('the pod running', async () => (await b.pods()).every((p) => p.status?.phase === 'Running'));
  }, 30_000);

  it('retries a failed launch with backoff and shows the failure as an Event', async () => {
    bed = await startProvisioningBed({ manual: true });
    const b = bed;
    b.provider.nextCreateError = new TransientCloudError('creating server: 503 service unavailable');
    const claim = await pendingClaim(b);
    b.startControllers();
    await b.until(
      'the claim launched',
      async () => (await b.kube.get<NodeClaim>(Resources.NodeClaim, { name: claim.metadata?.name ?? '' })).status?.providerID,
    );
    expect(b.provider.createCalls).toHaveLength(2);
    expect(b.provider.instances.size).toBe(1);
    const failed = await b.until('a LaunchFailed event', async () => (await b.events('LaunchFailed'))[0]);
    expect(failed.message).toContain('503 service unavailable');
  }, 20_000);

  it('a create told to wait for the listing is asked again after its wait, shown as a condition, not as a failure', async () => {
    bed = await startProvisioningBed({ manual: true });
    const b = bed;
    b.provider.nextCreateError = new CreatePendingError(
      'launching nodeclaim: an earlier create may have made a server the listing does not show yet',
      400,
    );
    const claim = await pendingClaim(b);
    const name = claim.metadata?.name ?? '';
    b.startControllers();
    const waiting = await b.until('the claim waiting for the listing', async () => {
      const c = await b.kube.get<NodeClaim>(Resources.NodeClaim, { name });
      return c.status?.conditions?.find((x) => x.type === 'Launched' && x.reason === ReasonAwaitingListing);
    });
    expect(waiting.status).toBe('False');
    expect(waiting.message).toContain('the listing does not show yet');
    await b.until('the claim launched', async () => (await b.kube.get<NodeClaim>(Resources.NodeClaim, { name })).status?.providerID);
    expect(b.provider.createCalls).toHaveLength(2);
    expect(await b.events('LaunchFailed')).toEqual([]);
  }, 20_000);

  it('deletes a NodeClaim whose node never registers, recording the registration timeout', async () => {
    bed = await startProvisioningBed({ manual: true, lifecycle: { timeouts: { registrationMs: 300 } } });
    const b = bed;
    b.bootNodes = false;
    const claim = await pendingClaim(b);
    const name = claim.metadata?.name ?? '';
    // Hold the NodeClaim with a finalizer so its deletion reason can be read (termination would remove it).
    await b.kube.patch(Resources.NodeClaim, { name }, { type: 'merge', body: { metadata: { finalizers: ['test.io/hold'] } } });
    b.startControllers();
    const deleted = await b.until('the claim deleted', async () => {
      const c = await b.kube.get<NodeClaim>(Resources.NodeClaim, { name });
      return c.metadata?.deletionTimestamp && c;
    });
    expect(deleted.metadata?.annotations?.[AnnotationDeletionReason]).toBe('registration_timeout');
    expect(deleted.status?.conditions?.find((c) => c.type === 'Launched')?.status).toBe('True');
    expect((await b.events('Deleting')).some((e) => e.message?.includes('no node registered within'))).toBe(true);
    // Termination (the finalizer the lifecycle put on) deleted the instance.
    await b.until('the instance gone from the cloud', () => b.provider.instances.size === 0);
    expect(b.provider.deleteCalls.length).toBeGreaterThan(0);
    await b.kube.patch(Resources.NodeClaim, { name }, { type: 'merge', body: { metadata: { finalizers: null } } });
  }, 20_000);

  it('a failed create of a NodeClaim whose launch was requested before is retried, never recorded as launched', async () => {
    bed = await startProvisioningBed({ manual: true });
    const b = bed;
    const claim = await pendingClaim(b);
    const name = claim.metadata?.name ?? '';
    await b.kube.patch(
      Resources.NodeClaim,
      { name },
      { type: 'merge', body: { metadata: { annotations: { [AnnotationLaunchRequested]: new Date().toISOString() } } } },
    );
    b.provider.nextCreateError = new TransientCloudError('listing servers: 503 service unavailable');
    const outcome = await b.lifecycle.reconcile(name);
    expect(outcome.kind).toBe('retry');
    expect((await b.kube.get<NodeClaim>(Resources.NodeClaim, { name })).status?.providerID).toBeUndefined();
    expect((await b.lifecycle.reconcile(name)).kind).toBe('launched');
    expect(b.provider.createCalls).toHaveLength(2);
    expect(b.provider.instances.size).toBe(1);
  }, 20_000);
});
