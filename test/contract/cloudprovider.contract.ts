/**
 * The CloudProvider contract (src/cloudprovider/types.ts) as one suite every provider must pass — the fake
 * and each cloud against its emulator. A provider test file calls `describeCloudProviderContract` with a
 * factory; the factory builds a fresh provider + cloud for every test and tears it down in `close`.
 *
 * Providers under this suite should be built with `ContractRetryPolicy` (retries without waiting), so a
 * cloud that keeps failing makes calls fail fast instead of sleeping through backoff.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LabelCapacityType, LabelInstanceType, LabelTopologyZone } from '../../src/apis/v1/labels.js';
import type { InstanceType } from '../../src/domain/instancetypes/types.js';
import {
  CreatePendingError,
  InsufficientCapacityError,
  findInChain,
  isInsufficientCapacityError,
  isNodeClaimNotFoundError,
} from '../../src/cloudprovider/errors.js';

import type {
  CloudNodeClaim,
  CloudProvider,
  CloudProviderNodeClaim,
  CloudProviderNodePool,
  CloudProviderRequirement,
} from '../../src/cloudprovider/types.js';
import type { BackoffPolicy } from '../../src/util/backoff.js';

export const ContractRetryPolicy: BackoffPolicy = { baseDelayMs: 0, maxDelayMs: 0, maxAttempts: 3 };

/** The cloud as the test sees it — the emulator's truth, not the provider's view. */
export interface ContractCloudView {
  /** Instances of this cluster that exist and are not terminating/terminated. */
  liveInstanceCount(): Promise<number>;
  /**
   * Makes instance reads fail until the returned function is called: `all` — every read fails (5xx);
   * `partial` — the first page/region/pool reads fine and a later one fails (needs ≥ 2 instances).
   */
  failReads(mode: 'all' | 'partial'): () => void;
  /** The cloud has no stock of this offering: launching it fails with the cloud's out-of-stock error. */
  outOfStock(offering: { instanceType: string; zone: string }): void;
  /** Lets asynchronous cloud work finish (boots, terminations, eventual consistency). */
  settle(): Promise<void>;
  /**
   * "The process died after its `calls`-th cloud call": every later request is dropped unhandled until the
   * returned function is called.
   */
  haltAfterCalls(calls: number): () => void;
  /**
   * What the instance still lacks to join the cluster, in words ("stopped", "no user data", "1 of 2 GPUs",
   * "pool desiredNodes 2 for 1 node"); empty when it runs (or boots) with everything it needs.
   */
  unfinished(providerID: string): Promise<string[]>;
  /** Moves the cloud's clock on (a provider that answered CreatePendingError is asked again after its wait). */
  passTime?(ms: number): void;
}

export interface ContractSubject {
  provider: CloudProvider;
  cloud: ContractCloudView;
  /** A NodePool whose NodeClass the provider can launch with. */
  nodePool: CloudProviderNodePool;
  /** A NodeClaim of that NodePool with a fresh uid; `requirements` are added to the NodePool's. */
  nodeClaim(name: string, requirements?: CloudProviderRequirement[]): CloudProviderNodeClaim;
  /** For providers that launch accelerators apart from the instance (Outscale flexible GPUs): a NodeClaim for one. */
  acceleratorNodeClaim?(name: string): CloudProviderNodeClaim;
  /** A new provider on the same cloud with nothing in memory, as a restarted process builds it. */
  restart(): CloudProvider;
  close(): Promise<void>;
}

export type ContractFactory = () => Promise<ContractSubject>;

function pin(instanceType: string, zones: string[]): CloudProviderRequirement[] {
  return [
    { key: LabelInstanceType, operator: 'In', values: [instanceType] },
    { key: LabelTopologyZone, operator: 'In', values: zones },
  ];
}

/** The cheapest instance type with available offerings in at least two zones, and those zones. */
function pickMultiZoneType(instanceTypes: InstanceType[]): { name: string; zones: string[] } {
  const candidates = instanceTypes
    .map((it) => ({ it, zones: [...new Set(it.offerings.filter((o) => o.available).map((o) => o.zone))] }))
    .filter((c) => c.zones.length >= 2)
    .sort((a, b) => Math.min(...a.it.offerings.map((o) => o.pricePerHour)) - Math.min(...b.it.offerings.map((o) => o.pricePerHour)));
  const first = candidates[0];
  if (!first) throw new Error('contract needs an instance type available in at least two zones');
  return { name: first.it.name, zones: first.zones.sort() };
}

function withProviderID(nodeClaim: CloudProviderNodeClaim, launched: CloudNodeClaim): CloudProviderNodeClaim {
  return { ...nodeClaim, status: { ...nodeClaim.status, providerID: launched.providerID } };
}

/** Stopping points tried before giving up: more cloud calls than any provider's create makes. */
const MaxCallsPerCreate = 60;

async function outcome<T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error };
  }
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, it succeeded');
}

export function describeCloudProviderContract(name: string, factory: ContractFactory): void {
  describe(`CloudProvider contract: ${name}`, () => {
    let subject: ContractSubject;
    let target: { name: string; zones: string[] };

    beforeEach(async () => {
      subject = await factory();
      target = pickMultiZoneType(await subject.provider.getInstanceTypes(subject.nodePool));
    });

    afterEach(async () => {
      await subject.close();
    });

    async function launch(claimName: string, requirements = pin(target.name, target.zones.slice(0, 1))) {
      const nodeClaim = subject.nodeClaim(claimName, requirements);
      const launched = await subject.provider.create(nodeClaim);
      await subject.cloud.settle();
      return { nodeClaim: withProviderID(nodeClaim, launched), launched };
    }

    it('describes itself: a name, the NodePool’s NodeClass kind among the supported ones, repair policies', () => {
      const { provider, nodePool } = subject;
      expect(provider.name.length).toBeGreaterThan(0);
      const ref = nodePool.spec.template.spec.nodeClassRef;
      expect(provider.getSupportedNodeClasses()).toContainEqual(expect.objectContaining({ group: ref.group, kind: ref.kind }));
      expect(Array.isArray(provider.repairPolicies())).toBe(true);
    });

    it('create returns the providerID, the chosen offering, capacity, allocatable and labels', async () => {
      const { launched } = await launch('contract-create');
      expect(launched.providerID).toMatch(/^[a-z]+:\/\/.+/);
      expect(launched.instanceType).toBe(target.name);
      expect(launched.zone).toBe(target.zones[0]);
      expect(launched.capacity['cpu']).toBeGreaterThan(0);
      expect(launched.capacity['memory']).toBeGreaterThan(0);
      expect(launched.allocatable['cpu']).toBeGreaterThan(0);
      expect(launched.allocatable['cpu']).toBeLessThanOrEqual(launched.capacity['cpu'] ?? 0);
      expect(launched.labels[LabelInstanceType]).toBe(target.name);
      expect(launched.labels[LabelTopologyZone]).toBe(target.zones[0]);
      expect(launched.labels[LabelCapacityType]).toBe(launched.capacityType);
      expect(Number.isFinite(launched.createdAt)).toBe(true);
    });

    it('a created instance is in list() and get()', async () => {
      const { launched } = await launch('contract-visible');
      const listed = await subject.provider.list();
      expect(listed.map((i) => i.providerID)).toContain(launched.providerID);
      const got = await subject.provider.get(launched.providerID);
      expect(got.providerID).toBe(launched.providerID);
      expect(got.instanceType).toBe(launched.instanceType);
      expect(got.zone).toBe(launched.zone);
    });

    it('delete then get throws NodeClaimNotFoundError, and list no longer has it', async () => {
      const { nodeClaim, launched } = await launch('contract-delete');
      await subject.provider.delete(nodeClaim);
      await subject.cloud.settle();
      expect(isNodeClaimNotFoundError(await rejection(subject.provider.get(launched.providerID)))).toBe(true);
      const live = (await subject.provider.list()).filter((i) => !i.terminating);
      expect(live.map((i) => i.providerID)).not.toContain(launched.providerID);
      expect(await subject.cloud.liveInstanceCount()).toBe(0);
    });

    it('delete is idempotent: once the instance is gone it throws NodeClaimNotFoundError', async () => {
      const { nodeClaim } = await launch('contract-delete-twice');
      await subject.provider.delete(nodeClaim);
      await subject.cloud.settle();
      expect(isNodeClaimNotFoundError(await rejection(subject.provider.delete(nodeClaim)))).toBe(true);
    });

    it('delete of a NodeClaim that never launched throws NodeClaimNotFoundError', async () => {
      const never = subject.nodeClaim('contract-never-launched');
      expect(isNodeClaimNotFoundError(await rejection(subject.provider.delete(never)))).toBe(true);
    });

    it('list() on a cloud that cannot be read throws — it never returns an empty list', async () => {
      await launch('contract-list-fails');
      const restore = subject.cloud.failReads('all');
      const error = await rejection(subject.provider.list());
      expect(isNodeClaimNotFoundError(error)).toBe(false);
      restore();
      expect(await subject.provider.list()).toHaveLength(1);
    });

    it('list() on a cloud read only in part throws — it never returns a partial list', async () => {
      await launch('contract-partial-a');
      await launch('contract-partial-b', pin(target.name, target.zones.slice(1, 2)));
      const restore = subject.cloud.failReads('partial');
      await rejection(subject.provider.list());
      restore();
      expect(await subject.provider.list()).toHaveLength(2);
    });

    it('an out-of-stock offering becomes InsufficientCapacityError and is marked unavailable', async () => {
      const [iceZone, otherZone] = target.zones as [string, string];
      subject.cloud.outOfStock({ instanceType: target.name, zone: iceZone });
      const error = await rejection(subject.provider.create(subject.nodeClaim('contract-ice', pin(target.name, [iceZone]))));
      expect(isInsufficientCapacityError(error)).toBe(true);
      expect(findInChain(error, InsufficientCapacityError)?.offerings).toContainEqual(
        expect.objectContaining({ instanceType: target.name, zone: iceZone }),
      );
      const types = await subject.provider.getInstanceTypes(subject.nodePool);
      const offering = types.find((t) => t.name === target.name)?.offerings.find((o) => o.zone === iceZone);
      expect(offering?.available).toBe(false);
      const { launched } = await launch('contract-after-ice', pin(target.name, [iceZone, otherZone]));
      expect(launched.zone).toBe(otherZone);
      await subject.cloud.settle();
      expect(await subject.cloud.liveInstanceCount()).toBe(1);
    });

    it('getInstanceTypes returns a type even when none of its offerings is available', async () => {
      for (const zone of target.zones) subject.cloud.outOfStock({ instanceType: target.name, zone });
      for (const zone of target.zones) {
        const error = await rejection(subject.provider.create(subject.nodeClaim(`contract-ice-${zone}`, pin(target.name, [zone]))));
        expect(isInsufficientCapacityError(error)).toBe(true);
      }
      const type = (await subject.provider.getInstanceTypes(subject.nodePool)).find((t) => t.name === target.name);
      expect(type).toBeDefined();
      expect(type?.offerings.filter((o) => target.zones.includes(o.zone)).every((o) => !o.available)).toBe(true);
    });

    it('create with the same NodeClaim twice, one after the other or at once, launches one instance', async () => {
      const nodeClaim = subject.nodeClaim('contract-idempotent', pin(target.name, target.zones.slice(0, 1)));
      const first = await subject.provider.create(nodeClaim);
      const again = await subject.provider.create(nodeClaim);
      expect(again.providerID).toBe(first.providerID);
      const concurrent = subject.nodeClaim('contract-idempotent-concurrent', pin(target.name, target.zones.slice(0, 1)));
      const [a, b] = await Promise.all([subject.provider.create(concurrent), subject.provider.create(concurrent)]);
      expect(a.providerID).toBe(b.providerID);
      await subject.cloud.settle();
      expect(await subject.cloud.liveInstanceCount()).toBe(2);
    });

    /**
     * create() as the lifecycle calls it: a CreatePendingError (an earlier create of unknown outcome may have
     * made an instance the listing does not show yet) is asked again once its wait has passed.
     */
    async function createHonouringPending(provider: CloudProvider, nodeClaim: CloudProviderNodeClaim): Promise<CloudNodeClaim> {
      for (let asked = 1; ; asked += 1) {
        const result = await outcome(provider.create(nodeClaim));
        if (result.ok) return result.value;
        const pending = findInChain(result.error, CreatePendingError);
        if (!pending || !subject.cloud.passTime || asked >= 100) throw result.error;
        subject.cloud.passTime(pending.retryAfterMs);
      }
    }

    /** Stops a create after each of its cloud calls in turn, and resumes it from a new provider each time. */
    async function resumeAfterEachCall(nodeClaimFor: (calls: number) => CloudProviderNodeClaim): Promise<void> {
      let ranThrough = false;
      for (let calls = 0; calls < MaxCallsPerCreate && !ranThrough; calls += 1) {
        const nodeClaim = nodeClaimFor(calls);
        const release = subject.cloud.haltAfterCalls(calls);
        const killed = await outcome(subject.restart().create(nodeClaim));
        release();
        ranThrough = killed.ok;
        const resumed = await createHonouringPending(subject.restart(), nodeClaim);
        await subject.cloud.settle();
        if (killed.ok) expect(resumed.providerID).toBe(killed.value.providerID);
        expect(await subject.cloud.liveInstanceCount(), `instances after a stop after call ${calls}`).toBe(calls + 1);
        expect(await subject.cloud.unfinished(resumed.providerID), `resumed after a stop after call ${calls}`).toEqual([]);
      }
      expect(ranThrough, `a create still unfinished after ${MaxCallsPerCreate} calls`).toBe(true);
    }

    it('create resumes a create that stopped after each of its cloud calls: one instance per NodeClaim, running, with everything it needs', async () => {
      await resumeAfterEachCall((calls) => subject.nodeClaim(`contract-resume-${calls}`, pin(target.name, target.zones.slice(0, 1))));
    }, 60_000);

    it('create resumes an accelerator launch stopped after each of its cloud calls: its accelerators linked, none left over', async (context) => {
      const accelerated = subject.acceleratorNodeClaim?.bind(subject);
      if (!accelerated) return context.skip('this provider launches no accelerator apart from the instance');
      await resumeAfterEachCall((calls) => accelerated(`contract-resume-gpu-${calls}`));
    }, 60_000);

    it('isDrifted answers undefined for an instance launched from the current NodeClass', async () => {
      const { nodeClaim } = await launch('contract-not-drifted');
      expect(await subject.provider.isDrifted(nodeClaim)).toBeUndefined();
    });
  });
}
