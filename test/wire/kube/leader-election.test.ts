import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { V1Lease } from '@kubernetes/client-node';
import { createKube, type Kube, KubeUnreachable, Resources } from '../../../src/kube/index.js';
import { InvalidLeaderElectionConfigError, LeaderElector } from '../../../src/operator/leader-election.js';
import type { ApiServer } from '../../../src/testbed/cluster/apiserver/index.js';
import { FakeClock } from '../../../src/util/clock.js';
import { eventually, startClusterWithCrds } from './kube-fixtures.js';

let server: ApiServer;
let clock: FakeClock;
const stops: AbortController[] = [];
const runs: Promise<void>[] = [];

beforeEach(async () => {
  server = await startClusterWithCrds();
  clock = new FakeClock();
});

afterEach(async () => {
  for (const c of stops.splice(0)) c.abort();
  await Promise.all(runs.splice(0));
  await server.close();
});

/** A Kube that can be cut off from the API server, as a partitioned replica would be. */
function partitionable(kube: Kube): { kube: Kube; cut: () => void } {
  let cut = false;
  const guarded = new Proxy(kube, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        cut ? Promise.reject(new KubeUnreachable('partitioned')) : (value as (...a: unknown[]) => unknown).apply(target, args);
    },
  });
  return { kube: guarded, cut: () => (cut = true) };
}

interface Candidate {
  elector: LeaderElector;
  stop: AbortController;
  cut: () => void;
  done: Promise<void>;
  running: () => boolean;
}

const log: string[] = [];

function candidate(identity: string, releaseOnCancel = true): Candidate {
  const { kube, cut } = partitionable(createKube(server.kubeConfig));
  const elector = new LeaderElector({
    kube,
    clock,
    identity,
    lease: { name: 'karpenter-leader-election', namespace: 'kube-system' },
    leaseDurationMs: 15_000,
    renewDeadlineMs: 10_000,
    retryPeriodMs: 2_000,
    releaseOnCancel,
    onStartedLeading: () => log.push(`${clock.now() - start} ${identity} started`),
    onStoppedLeading: () => log.push(`${clock.now() - start} ${identity} stopped`),
  });
  const stop = new AbortController();
  stops.push(stop);
  let running = true;
  const done = elector.run(stop.signal).finally(() => (running = false));
  runs.push(done);
  return { elector, stop, cut, done, running: () => running };
}

let start = 0;

/** Moves the clock in retry-period steps, letting every running candidate finish its round in between. */
async function advance(ms: number, candidates: Candidate[]): Promise<void> {
  for (let t = 0; t < ms; t += 2_000) {
    await eventually(() => clock.waiting === candidates.filter((c) => c.running()).length);
    clock.step(2_000);
  }
  await eventually(() => clock.waiting === candidates.filter((c) => c.running()).length);
}

const leaders = (cs: Candidate[]): number => cs.filter((c) => c.elector.isLeader()).length;

describe('LeaderElector on a coordination.k8s.io Lease', () => {
  beforeEach(() => {
    log.length = 0;
    start = clock.now();
  });

  it('lets exactly one of two candidates lead, and it keeps renewing', async () => {
    const a = candidate('a');
    const b = candidate('b');
    await advance(0, [a, b]);
    expect(leaders([a, b])).toBe(1);
    const leader = a.elector.isLeader() ? 'a' : 'b';
    await advance(30_000, [a, b]);
    expect(leaders([a, b])).toBe(1);
    expect(log).toEqual([`0 ${leader} started`]);
    const lease = await createKube(server.kubeConfig).get<V1Lease>(Resources.Lease, {
      name: 'karpenter-leader-election',
      namespace: 'kube-system',
    });
    expect(lease.spec).toMatchObject({ holderIdentity: leader, leaseDurationSeconds: 15, leaseTransitions: 0 });
    expect(String(lease.spec?.renewTime)).toBe('2026-01-01T00:00:30.000000Z');
  });

  it('fails over after the leader is partitioned: it stops at the renew deadline, the other takes over after expiry', async () => {
    const a = candidate('a');
    await advance(0, [a]);
    expect(a.elector.isLeader()).toBe(true);
    const b = candidate('b');
    await advance(4_000, [a, b]);
    a.cut();
    await advance(30_000, [a, b]);
    expect(a.running()).toBe(false);
    expect(b.elector.isLeader()).toBe(true);
    // a gives up 10 s after its last renewal (at 4 s). b waits 15 s from the last change it saw: the renewal
    // at 4 s, seen at 4 s or, when b read before a wrote, at 6 s; so it leads at 20 s or 22 s, never with a.
    expect(log.slice(0, 2)).toEqual(['0 a started', '14000 a stopped']);
    expect(log.slice(2)).toHaveLength(1);
    expect(['20000 b started', '22000 b started']).toContain(log[2]);
    const lease = await createKube(server.kubeConfig).get<V1Lease>(Resources.Lease, {
      name: 'karpenter-leader-election',
      namespace: 'kube-system',
    });
    expect(lease.spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
  });

  it('releases the lease on cancel so the standby leads at its next retry, not after expiry', async () => {
    const a = candidate('a');
    await advance(0, [a]);
    const b = candidate('b');
    await advance(2_000, [a, b]);
    a.stop.abort();
    await a.done;
    await advance(2_000, [b]);
    expect(b.elector.isLeader()).toBe(true);
    expect(log).toEqual(['0 a started', '2000 a stopped', '4000 b started']);
  });

  it('refuses inconsistent timings', () => {
    const kube = createKube(server.kubeConfig);
    const base = {
      kube,
      clock,
      identity: 'x',
      lease: { name: 'l', namespace: 'default' },
      onStartedLeading: () => undefined,
      onStoppedLeading: () => undefined,
    };
    expect(() => new LeaderElector({ ...base, leaseDurationMs: 10_000, renewDeadlineMs: 10_000 })).toThrow(
      InvalidLeaderElectionConfigError,
    );
    expect(() => new LeaderElector({ ...base, renewDeadlineMs: 2_000, retryPeriodMs: 2_000 })).toThrow(
      'validating leader election: renewDeadlineMs is 2000, accepted: a number > retryPeriodMs × 1.2 (2400)',
    );
  });
});
