/**
 * A frozen leader: two replicas of `karpenter-eu run` against one cluster, the leader SIGSTOPped just after
 * pods appear (before its provisioning batch closes), thawed with SIGCONT once the other replica took the lease
 * and launched for them. It wakes with its batch timer overdue and a cache that has not seen the new
 * NodeClaims yet; it must not write anything, and must exit so that its pod restarts from fresh state.
 */
import { CoordinationV1Api } from '@kubernetes/client-node';
import { type AuditedWrite, type FencingRules, writesAfterLeaseLoss } from './fencing.js';
import type { Violation } from './invariants.js';
import { Monitor } from './monitor.js';
import type { ChaosCloud } from './observe.js';
import { bringUp, converged, createDeployment, deployment, eventually } from './workload.js';
import { ChaosLease, type ChaosWorld, startChaosWorld } from './world.js';

export interface FrozenLeaderOptions {
  cloud: ChaosCloud;
  pods: number;
  /** From the pods appearing to the SIGSTOP. */
  freezeAfterMs: number;
}

export interface FrozenLeaderOutcome {
  /** Writes a replica sent while it did not hold the lease. */
  writesAfterLeaseLoss: Violation[];
  /** NodeClaims the frozen leader created once thawed. */
  claimsByOldLeader: string[];
  /** NodeClaims the replica that took over created. */
  claimsByNewLeader: string[];
  /** How the old leader's process ended after it was thawed (`1`: it exited on losing the lease). */
  oldLeaderExit: string;
  /** Duplicates and wrong deletions seen while it ran, and what kept the world from converging. */
  invariantViolations: Violation[];
}

const TimeoutMs = 120_000;

export function fencingRules(world: ChaosWorld): FencingRules {
  return {
    leasePath: `/apis/coordination.k8s.io/v1/namespaces/${ChaosLease.namespace}/leases/${ChaosLease.name}`,
    leaseDurationMs: ChaosLease.durationMs,
    replicas: Array.from({ length: world.replicas }, (_, i) => world.replicaUser(i)),
  };
}

export function auditedWrites(world: ChaosWorld): AuditedWrite[] {
  return world.cluster.apiServer.audit.records().map((r) => ({ ...r }));
}

/** The replica holding the lease (identities are `chaos-<i>_<suffix>`). */
export async function leaseHolder(world: ChaosWorld): Promise<number | undefined> {
  const lease = await world.cluster.kubeConfig
    .makeApiClient(CoordinationV1Api)
    .readNamespacedLease({ name: ChaosLease.name, namespace: ChaosLease.namespace });
  const match = /^chaos-(\d+)_/.exec(lease.spec?.holderIdentity ?? '');
  return match ? Number(match[1]) : undefined;
}

function claimsCreatedBy(world: ChaosWorld, replica: number, since: number): string[] {
  const user = world.replicaUser(replica);
  return auditedWrites(world)
    .filter((w) => w.username === user && w.method === 'POST' && /\/nodeclaims$/.test(w.path) && w.code === 201 && w.receivedAt >= since)
    .map((w) => `${w.method} ${w.path} @${w.receivedAt}`);
}

/** Waits until replica 1 leads and every NodeClaim it made has an instance, with replica 0 frozen meanwhile. */
async function freezeThroughTakeover(world: ChaosWorld, options: FrozenLeaderOptions): Promise<void> {
  await eventually('the pods created', () => world.observe().pods.length >= options.pods, TimeoutMs);
  await new Promise((resolve) => setTimeout(resolve, options.freezeAfterMs));
  world.pauseOperator(0);
  await eventually('replica 1 took the lease', async () => (await leaseHolder(world)) === 1, TimeoutMs);
  await eventually(
    'replica 1 launched for the pods',
    () => {
      const now = world.observe();
      const launched = now.claims.filter((c) => now.instances.some((i) => i.claimTag === c.name));
      // On a starved machine the leader may have created every NodeClaim before it froze: the new leader then
      // only launches them, and the caller sees it in `claimsByNewLeader`.
      return now.claims.length > 0 && launched.length === now.claims.length;
    },
    TimeoutMs,
  );
}

export async function runFrozenLeader(options: FrozenLeaderOptions): Promise<FrozenLeaderOutcome> {
  const world = await startChaosWorld({ cloud: options.cloud, replicas: 2 });
  const monitor = new Monitor(world);
  try {
    await bringUp(world);
    await eventually('replica 0 leads', async () => (await leaseHolder(world)) === 0, TimeoutMs);
    world.startOperator(1);
    await eventually('replica 1 serving', () => world.replicaReady(1), TimeoutMs);
    monitor.start();
    await createDeployment(world, deployment(options.cloud, 'web', options.pods));
    await freezeThroughTakeover(world, options);
    const oldLeader = world.operator(0);
    // A frozen process sends nothing: what the API server receives from it between the freeze and the thaw was on
    // the wire before the freeze (the test process, starved, may read it late), written while it still led.
    const thawedAt = Date.now();
    world.resumeOperator(0);
    const oldLeaderExit = oldLeader ? await oldLeader.exited : 'not running';
    const convergence = await converged(world, TimeoutMs).then(
      () => [],
      (error: unknown) => [{ kind: 'pod-not-running' as const, subject: 'convergence', detail: String(error) }],
    );
    monitor.check();
    return {
      writesAfterLeaseLoss: writesAfterLeaseLoss(auditedWrites(world), fencingRules(world)),
      claimsByOldLeader: claimsCreatedBy(world, 0, thawedAt),
      claimsByNewLeader: claimsCreatedBy(world, 1, 0),
      oldLeaderExit,
      invariantViolations: [...monitor.violations(), ...convergence],
    };
  } finally {
    monitor.stop();
    await world.close();
  }
}
