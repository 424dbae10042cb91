// The write fence with the real lease loop (startLeadership) on the simulated API server, on the fake clock:
// a leader that was frozen past its renew deadline has its writes refused the instant it wakes, before its
// lease loop could run, and writes again only once a renewal proves nobody took the lease; one that finds the
// lease taken stops writing at once and stops leading; a shutdown closes the fence too. What the server
// received is read from its audit log.
import type { V1Secret, V1Lease } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FencedWriteError } from '../../../src/domain/leadership/term.js';
import { createKube, type Kube, Resources } from '../../../src/kube/index.js';
import { fencedKube, LeadershipFence } from '../../../src/operator/fence.js';
import { type Leadership, LeadershipLostError, startLeadership } from '../../../src/operator/leadership.js';
import type { OperatorConfig } from '../../../src/operator/options.js';
import type { ApiServer } from '../../../src/testbed/cluster/apiserver/index.js';
import { kubeConfigFor } from '../../../src/testbed/cluster/apiserver/kubeconfig.js';
import { FakeClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';
import { eventually, startClusterWithCrds } from './kube-fixtures.js';

const Lease = { name: 'karpenter-eu-leader-election', namespace: 'kube-system' };
const Timing = { leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 250 };

let server: ApiServer;
let clock: FakeClock;
const running: Leadership[] = [];

beforeEach(async () => {
  server = await startClusterWithCrds({ tokens: { 'token-a': 'replica-a' } });
  clock = new FakeClock();
});

afterEach(async () => {
  for (const l of running.splice(0)) await l.stop();
  await server.close();
});

function config(identity: string, enabled = true): OperatorConfig['leaderElection'] {
  return { enabled, leaseName: Lease.name, leaseNamespace: Lease.namespace, identity, ...Timing };
}

/** A lease loop on its own client, its controllers doing nothing until told to stop. */
function replica(identity: string): Leadership {
  const fence = new LeadershipFence(clock, Timing.renewDeadlineMs);
  const leadership = startLeadership({
    config: config(identity),
    kube: createKube(server.kubeConfig),
    clock,
    logger: silentLogger,
    fence,
    lead: (signal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })),
  });
  running.push(leadership);
  return leadership;
}

interface ReplicaA {
  leadership: Leadership;
  fence: LeadershipFence;
  /** The fenced client its controllers would write with. */
  writes: Kube;
  /** Holds every call of its client until `thaw`, as a stopped process would. */
  freeze(): void;
  thaw(): void;
}

/** Replica a, writing as `replica-a`; `freezable`: its client can be held as a SIGSTOPped process's would be. */
function replicaA(options: { enabled?: boolean; freezable?: boolean } = {}): ReplicaA {
  const enabled = options.enabled ?? true;
  const kubeConfig = kubeConfigFor(server.url);
  kubeConfig.users[0] = { name: 'admin', token: 'token-a' } as (typeof kubeConfig.users)[0];
  const direct = createKube(kubeConfig);
  let frozen: Promise<void> | undefined;
  let thaw = (): void => undefined;
  const kube = new Proxy(direct, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const call = value as (...args: unknown[]) => Promise<unknown>;
      return async (...args: unknown[]) => {
        await frozen;
        return call.apply(target, args);
      };
    },
  });
  const fence = new LeadershipFence(clock, enabled ? Timing.renewDeadlineMs : undefined);
  const leadership = startLeadership({
    config: config('a', enabled),
    kube,
    clock,
    logger: silentLogger,
    fence,
    lead: (signal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })),
  });
  running.push(leadership);
  return {
    leadership,
    fence,
    writes: fencedKube(direct, fence),
    freeze: () => {
      frozen = new Promise<void>((resolve) => (thaw = resolve));
    },
    thaw: () => {
      frozen = undefined;
      thaw();
    },
  };
}

const secret = (name: string): V1Secret => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'default' } });

/** Secret writes replica a got through to the server. */
const writesReceived = (): string[] =>
  server.audit
    .records()
    .filter((r) => r.username === 'replica-a' && r.path.includes('/secrets'))
    .map((r) => `${r.method} ${r.path}`);

/** Lets the lease loops finish their round, then moves one retry period on. */
async function retry(parked: () => boolean = () => clock.waiting > 0): Promise<void> {
  await eventually(parked);
  clock.step(Timing.retryPeriodMs);
}

describe('fenced writes of a leader', () => {
  it('refuses writes the instant a frozen leader wakes past its renew deadline, before its lease loop runs; writes again once it renewed', async () => {
    const a = replicaA();
    await eventually(() => a.leadership.isLeading());
    await a.writes.create(Resources.Secret, secret('before'));
    await eventually(() => clock.waiting > 0);
    // The freeze: time jumps past the renew deadline with every timer overdue; nothing has run since.
    clock.step(Timing.renewDeadlineMs + 500);
    const written = a.writes.create(Resources.Secret, secret('after-thaw'));
    await expect(written).rejects.toBeInstanceOf(FencedWriteError);
    await expect(written).rejects.toThrow(/past the renew deadline of 2000ms/);
    // Nobody took the lease meanwhile: the renewal (a write at the resourceVersion read) proves it, and it leads on.
    await eventually(() => a.fence.verdict().allowed);
    await a.writes.create(Resources.Secret, secret('renewed'));
    expect(a.leadership.isLeading()).toBe(true);
    expect(writesReceived()).toEqual(['POST /api/v1/namespaces/default/secrets', 'POST /api/v1/namespaces/default/secrets']);
    expect(a.fence.refused()).toBe(1);
  });

  it('a leader frozen while another replica took the lease: refused on waking, and it stops leading', async () => {
    const a = replicaA({ freezable: true });
    await eventually(() => a.leadership.isLeading());
    await eventually(() => clock.waiting > 0);
    a.freeze();
    const b = replica('b');
    for (let i = 0; i < 40 && !b.isLeading(); i++) await retry();
    expect(b.isLeading()).toBe(true);
    a.thaw();
    await expect(a.writes.create(Resources.Secret, secret('stale'))).rejects.toThrow(/past the renew deadline/);
    await expect(a.leadership.done).rejects.toBeInstanceOf(LeadershipLostError);
    expect(a.fence.verdict()).toEqual({ allowed: false, reason: 'leadership ended: lost the lease' });
    expect(writesReceived()).toEqual([]);
  });

  it('stops writing at once when it sees the lease taken, though its own renewal is recent', async () => {
    const a = replicaA();
    await eventually(() => a.leadership.isLeading());
    const admin = createKube(server.kubeConfig);
    const lease = await admin.get<V1Lease>(Resources.Lease, Lease);
    await admin.replace(Resources.Lease, { ...lease, spec: { ...lease.spec, holderIdentity: 'b' } });
    await retry();
    await expect(a.leadership.done).rejects.toBeInstanceOf(LeadershipLostError);
    await expect(a.writes.patch(Resources.Secret, { name: 'x', namespace: 'default' }, { type: 'merge', body: {} })).rejects.toThrow(
      'patching Secret x: refused, this replica may not write as the leader (leadership ended: lost the lease)',
    );
    expect(writesReceived()).toEqual([]);
  });

  it('keeps writing while it renews, however long it leads', async () => {
    const a = replicaA();
    await eventually(() => a.leadership.isLeading());
    for (let i = 0; i < 40; i++) await retry();
    await eventually(() => clock.waiting > 0);
    await a.writes.create(Resources.Secret, secret('still-leading'));
    expect(writesReceived()).toHaveLength(1);
    expect(a.leadership.isLeading()).toBe(true);
  });

  it('without leader election, writes until shutdown and none after', async () => {
    const a = replicaA({ enabled: false });
    await eventually(() => a.leadership.isLeading());
    clock.step(60_000);
    await a.writes.create(Resources.Secret, secret('unelected'));
    await a.leadership.stop();
    await expect(a.writes.delete(Resources.Secret, { name: 'unelected', namespace: 'default' })).rejects.toThrow(
      'leadership ended: shutting down',
    );
    expect(writesReceived()).toEqual(['POST /api/v1/namespaces/default/secrets']);
  });
});
