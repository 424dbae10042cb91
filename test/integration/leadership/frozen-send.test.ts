// A leader's write whose check passed, then the process froze before the request went out: on waking, the write
// must not reach the API server once the lease has run out. Two places a freeze lands in the real client: right
// after the controller's call (before any of client-node's awaits ran) and while the request's connection is being
// opened (client-node opens one per request). The process is frozen for real (its event loop, the simulated API
// server's included, blocked past the lease duration) and its lease loop renews nothing meanwhile, as when another
// replica took the lease. Judged on the API server's audit log with the chaos suite's rule (harness/fencing.ts).
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { V1Secret } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FencedWriteError } from '../../../src/domain/leadership/term.js';
import { createKube, type Kube, Resources } from '../../../src/kube/index.js';
import { fencedKubeClient, LeadershipFence } from '../../../src/operator/fence.js';
import { type Leadership, startLeadership } from '../../../src/operator/leadership.js';
import { type ApiServer, startApiServer } from '../../../src/testbed/cluster/apiserver/index.js';
import { kubeConfigFor } from '../../../src/testbed/cluster/apiserver/kubeconfig.js';
import { stallEventLoop } from '../../../src/testbed/faults/stall.js';
import { SystemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';
import { writesAfterLeaseLoss } from '../../chaos/harness/fencing.js';

const Lease = { name: 'karpenter-eu-leader-election', namespace: 'kube-system' };
const Timing = { leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 250 };
/** Longer than the lease: by the time the write could go out, another replica may have led for a while. */
const FreezeMs = Timing.leaseDurationMs + 500;
const User = 'replica-a';

let server: ApiServer;
let leadership: Leadership | undefined;
let thaw = (): void => undefined;

beforeEach(async () => {
  server = await startApiServer({ tokens: { 'token-a': User } });
});

afterEach(async () => {
  thaw();
  await leadership?.stop();
  await server.close();
});

async function eventually(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

interface Leader {
  fence: LeadershipFence;
  /** The client the operator gives its leader-only controllers. */
  writes: Kube;
  /** From now on the lease loop's calls wait (its renewals get nowhere), as when the lease was taken meanwhile. */
  holdRenewals(): void;
}

/** Replica a leading with the real lease loop on the system clock, writing as `replica-a`. */
async function leader(): Promise<Leader> {
  const kubeConfig = kubeConfigFor(server.url);
  kubeConfig.users[0] = { name: 'admin', token: 'token-a' } as (typeof kubeConfig.users)[0];
  const direct = createKube(kubeConfig);
  let held: Promise<void> | undefined;
  const leaseKube = new Proxy(direct, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const call = value as (...args: unknown[]) => Promise<unknown>;
      return async (...args: unknown[]) => {
        await held;
        return call.apply(target, args);
      };
    },
  });
  const clock = new SystemClock();
  const fence = new LeadershipFence(clock, Timing.renewDeadlineMs);
  leadership = startLeadership({
    config: { enabled: true, leaseName: Lease.name, leaseNamespace: Lease.namespace, identity: 'a', ...Timing },
    kube: leaseKube,
    clock,
    logger: silentLogger,
    fence,
    lead: (signal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })),
  });
  await eventually(() => leadership?.isLeading() === true && fence.verdict().allowed);
  return {
    fence,
    writes: fencedKubeClient(kubeConfig, fence),
    holdRenewals: () => {
      held = new Promise<void>((resolve) => (thaw = resolve));
    },
  };
}

const secret = (name: string): V1Secret => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'default' } });

const violations = (): string[] =>
  writesAfterLeaseLoss(
    server.audit.records().map((r) => ({ ...r })),
    {
      leasePath: `/apis/coordination.k8s.io/v1/namespaces/${Lease.namespace}/leases/${Lease.name}`,
      leaseDurationMs: Timing.leaseDurationMs,
      replicas: [User],
    },
  ).map((v) => v.detail);

const secretWrites = (): string[] =>
  server.audit
    .records()
    .filter((r) => r.username === User && r.path.includes('/secrets'))
    .map((r) => `${r.method} ${r.path}`);

describe('a leader frozen between its write check and the send', () => {
  it('sends nothing when frozen right after the call, before the client ran any of its awaits', { timeout: 60_000 }, async () => {
    const a = await leader();
    await a.writes.create(Resources.Secret, secret('before'));
    a.holdRenewals();
    const written = a.writes.create(Resources.Secret, secret('after-freeze'));
    expect(a.fence.refused()).toBe(0); // the call's own check passed: the lease was fresh
    stallEventLoop(FreezeMs);
    await expect(written).rejects.toBeInstanceOf(FencedWriteError);
    await expect(written).rejects.toThrow(/sending POST \/api\/v1\/namespaces\/default\/secrets: refused.*past the renew deadline/);
    expect(secretWrites()).toEqual(['POST /api/v1/namespaces/default/secrets']);
    expect(violations()).toEqual([]);
  });

  it('sends nothing when frozen while the request’s connection is being opened', { timeout: 60_000 }, async () => {
    const a = await leader();
    a.holdRenewals();
    let frozen = 0;
    const freezeOnce = (): void => {
      if (frozen++ === 0) stallEventLoop(FreezeMs);
    };
    subscribe('undici:client:beforeConnect', freezeOnce);
    try {
      const patched = a.writes.patch(Resources.Secret, { name: 'x', namespace: 'default' }, { type: 'merge', body: { data: {} } });
      await expect(patched).rejects.toBeInstanceOf(FencedWriteError);
    } finally {
      unsubscribe('undici:client:beforeConnect', freezeOnce);
    }
    expect(frozen).toBeGreaterThan(0);
    expect(secretWrites()).toEqual([]);
    expect(violations()).toEqual([]);
  });
});
