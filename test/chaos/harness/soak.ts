/**
 * A seeded soak on one cloud: the workload scales up and down (on Outscale, a GPU pod's node is also replaced
 * now and then, so flexible GPUs are created, linked and released) while the cloud answers with 5xx, 429,
 * timeouts, lost replies and empty or truncated 200s, listings lag 0–30 s, the API server drops its watches,
 * the leader is SIGKILLed at random cloud calls, and frozen (SIGSTOP) past its lease just after a rescale and
 * thawed (SIGCONT). The world is slow throughout: every watch event arrives late (random, with bursts), the
 * replicas are throttled (short SIGSTOP/SIGCONT bursts, as a cgroup CPU quota does) and, if asked, busy
 * processes take whole cores. Replicas that exit are restarted, as the kubelet would. Invariants are watched throughout,
 * and every write the API server received is judged against the lease (harness/fencing.ts); at the end the
 * faults stop and the world must converge. The same seed replays the same choices.
 */
import type { Fault, FaultRule } from '../../../src/testbed/emulators/faults.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { convergedViolations, instanceUse, type Violation } from './invariants.js';
import { Monitor } from './monitor.js';
import type { ChaosCloud } from './observe.js';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { bringUp, createDeployment, createPod, deployment, eventually, gpuPod, scaleDeployment } from './workload.js';
import { ChaosLease, type ChaosWorld, startChaosWorld } from './world.js';
import { writesAfterLeaseLoss } from './fencing.js';
import { auditedWrites, fencingRules, leaseHolder } from './pause-scenario.js';
import { seededRandom } from '../../../src/util/seeded-random.js';

export interface SoakOptions {
  cloud: ChaosCloud;
  durationMs: number;
  seed: number;
  /** How long the world may take to converge once the faults stop. */
  convergeTimeoutMs?: number;
  /** Operator replicas competing for the lease (default 2). */
  replicas?: number;
  /** Progress lines (the CLI prints them; tests pass nothing). */
  say?: (line: string) => void;
  /** Most delay of a watch event outside a burst, ms (bursts add up to four times more); 0: none. */
  watchDelayMs?: number;
  /** Throttle the replicas: SIGSTOP bursts of 50–500 ms every 1–3 s, one replica at a time. */
  throttle?: boolean;
  /** Busy processes started for the run, each taking a core. */
  busyCores?: number;
}

export interface SoakReport {
  cloud: ChaosCloud;
  seed: number;
  replicas: number;
  kills: number;
  /** Kills made at a cloud call (the rest landed between calls). */
  killsAtCalls: number;
  /** Leaders frozen past their lease and thawed. */
  pauses: number;
  watchDelayMs: number;
  /** Throttling bursts (short SIGSTOPs) the replicas got. */
  throttles: number;
  busyCores: number;
  /** Writes the API server received from a replica that did not hold the lease. */
  writesAfterLeaseLoss: number;
  faultsInjected: number;
  faultsByKind: Record<string, number>;
  watchDrops: number;
  /** GPU NodeClaims deleted during the run (Outscale), each followed by a new GPU launch. */
  gpuNodesReplaced: number;
  duplicates: number;
  leaks: number;
  /** GPUs allocated and linked to no live instance at the end (among the leaks). */
  leakedGpus: number;
  wrongDeletions: number;
  /** GPUs deleted or detached while their NodeClaim was live. */
  wrongGpuRemovals: number;
  /** Live instances at the end, and those whose node runs a workload pod. */
  instancesAtEnd: number;
  instancesHostingPods: number;
  /** From the restart after the last kill to every invariant holding; undefined if it never converged. */
  convergedAfterLastKillMs?: number;
  violations: Violation[];
}

/** The calls that change the cloud during launches and deletions, where a kill hurts most. */
export const MutatingActions: Readonly<Record<ChaosCloud, readonly string[]>> = {
  scaleway: ['createServer', 'setServerUserData', 'poweron', 'terminate', 'deleteVolume'],
  outscale: ['CreateVms', 'CreateTags', 'StartVms', 'CreateFlexibleGpu', 'LinkFlexibleGpu', 'DeleteVms'],
  ovhcloud: ['createNodePool', 'updateNodePool', 'deleteNode'],
};

/** The random faults, each on a small share of all calls (seeded by the emulator's injector). */
function faultRules(): FaultRule[] {
  const rule = (fault: Fault, probability: number): FaultRule => ({ fault, probability });
  return [
    rule({ kind: 'server-error', status: 500 }, 0.03),
    rule({ kind: 'server-error', status: 503 }, 0.03),
    rule({ kind: 'throttle', retryAfterSeconds: 1 }, 0.03),
    rule({ kind: 'timeout', afterMs: 3_000 }, 0.01),
    rule({ kind: 'lost-reply' }, 0.02),
    rule({ kind: 'empty-ok', body: '' }, 0.01),
    rule({ kind: 'empty-ok', body: '{}' }, 0.01),
    rule({ kind: 'truncated-ok' }, 0.01),
  ];
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

class Chaos {
  kills = 0;
  killsAtCalls = 0;
  pauses = 0;
  watchDrops = 0;
  gpuNodesReplaced = 0;
  throttles = 0;
  lastRestartAt = Date.now();
  private readonly ruleIds: number[] = [];
  private supervisor: NodeJS.Timeout | undefined;

  constructor(
    private readonly world: ChaosWorld,
    private readonly random: () => number,
    private readonly say: (line: string) => void,
  ) {}

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }

  startFaults(): void {
    for (const rule of faultRules()) this.ruleIds.push(this.world.faults.add(rule));
  }

  /** Restarts every replica whose process is gone (killed, or exited on losing the lease), as the kubelet would. */
  superviseReplicas(): void {
    this.supervisor = setInterval(() => {
      for (let i = 0; i < this.world.replicas; i++) {
        if (this.world.operator(i)) continue;
        this.world.startOperator(i);
        this.lastRestartAt = Date.now();
      }
    }, 500);
  }

  stopSupervising(): void {
    clearInterval(this.supervisor);
  }

  /** The replica holding the lease, or 0 when none does (or the Lease cannot be read). */
  async leader(): Promise<number> {
    return (await leaseHolder(this.world).catch(() => undefined)) ?? 0;
  }

  /**
   * Rescales, then freezes the leader a moment later (its batch window open, its cache about to go stale) for
   * longer than its lease, and thaws it: it must not write, and exits; the supervisor restarts it.
   */
  async pauseLeader(): Promise<void> {
    const leader = await this.leader();
    await scaleDeployment(this.world, 'web', Math.floor(this.random() * 7)).catch(() => undefined);
    await sleep(Math.floor(this.random() * 400));
    if (!this.world.operator(leader)) return;
    const frozenMs = ChaosLease.durationMs + 500 + Math.floor(this.random() * 5_000);
    this.world.pauseOperator(leader);
    await sleep(frozenMs);
    this.world.resumeOperator(leader);
    this.pauses += 1;
    this.say(`  pause ${this.pauses}: replica ${leader} frozen for ${(frozenMs / 1000).toFixed(1)} s`);
  }

  stopFaults(): void {
    for (const id of this.ruleIds.splice(0)) this.world.faults.remove(id);
    this.world.setListingLag(0);
    this.world.emulators.outscale?.setPageLimit(undefined);
  }

  /**
   * Kills the operator at the next call that changes the cloud (or after 20 s, wherever it is), then restarts it.
   * The workload is rescaled at the same time, so launches or deletions are under way.
   */
  async killSomewhere(): Promise<void> {
    let firedAt: string | undefined;
    const then = this.random() < 0.8 ? 'answer' : 'drop';
    const ids: number[] = [];
    const disarm = (): void => {
      for (const id of ids.splice(0)) this.world.faults.remove(id);
    };
    for (const action of MutatingActions[this.world.cloud]) {
      ids.push(
        this.world.faults.add({
          match: { action },
          times: 1,
          fault: {
            kind: 'hook',
            then,
            run: async (req) => {
              disarm();
              // Only once the process is gone: a restart before that would race it for its ports.
              await this.world.killOperator(await this.leader());
              firedAt = req.action;
            },
          },
        }),
      );
    }
    await scaleDeployment(this.world, 'web', Math.floor(this.random() * 7)).catch(() => undefined);
    await eventually('a call that changes the cloud', () => firedAt !== undefined, 20_000).catch(() => undefined);
    disarm();
    if (firedAt === undefined) await this.world.killOperator(await this.leader());
    this.kills += 1;
    if (firedAt !== undefined) this.killsAtCalls += 1;
    this.say(`  kill ${this.kills} ${firedAt ? `${then === 'answer' ? 'after' : 'at'} ${firedAt}` : 'between calls'}`);
  }

  /** A listing lag of 0–30 s and, where the emulator has them, pages of 1–3 items. */
  shakeListings(): void {
    this.world.setListingLag(Math.floor(this.random() * 30_000));
    this.world.emulators.outscale?.setPageLimit(this.random() < 0.5 ? 1 + Math.floor(this.random() * 3) : undefined);
  }

  dropWatches(): void {
    this.world.cluster.apiServer.dropWatches();
    this.watchDrops += 1;
  }

  /**
   * Deletes the NodeClaim of the GPU node, as `kubectl delete nodeclaim` would: its GPU is released and the GPU pod
   * goes back to Pending, so a new GPU is created and attached while the faults, kills and garbage collection run.
   */
  async replaceGpuNode(): Promise<void> {
    const api = this.world.cluster.kubeConfig.makeApiClient(CustomObjectsApi);
    const claims = (await api.listClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodeclaims' })) as {
      items: { metadata: { name: string; deletionTimestamp?: string }; spec?: { resources?: { requests?: Record<string, string> } } }[];
    };
    const gpu = claims.items.find((c) => !c.metadata.deletionTimestamp && c.spec?.resources?.requests?.['nvidia.com/gpu'] !== undefined);
    if (!gpu) return;
    await api.deleteClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodeclaims', name: gpu.metadata.name });
    this.gpuNodesReplaced += 1;
    this.say(`  gpu node ${gpu.metadata.name} deleted`);
  }
}

/** Until `until`: every 1–3 s one running replica is stopped for 50–500 ms (below the renew deadline). */
async function throttleLoop(world: ChaosWorld, chaos: Chaos, random: () => number, until: number): Promise<void> {
  while (Date.now() < until) {
    await sleep(1_000 + Math.floor(random() * 2_000));
    if (world.throttleOperator(Math.floor(random() * world.replicas), 50 + Math.floor(random() * 450))) chaos.throttles += 1;
  }
}

/** Watch events of every resource arrive 0–maxMs late; now and then a burst of up to 3 s adds up to 4 × maxMs. */
function delayWatches(world: ChaosWorld, maxMs: number, seed: number): void {
  if (maxMs <= 0) return;
  world.cluster.apiServer.watchDelays.reseed(seed);
  world.cluster.apiServer.watchDelays.set('*', { minMs: 0, maxMs, burstChance: 0.01, burstMs: 3_000, burstDelayMs: 4 * maxMs });
}

/** `count` processes spinning on a core each, until stopped. */
function busyCores(count: number): ChildProcess[] {
  return Array.from({ length: count }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

function faultCounts(world: ChaosWorld): Record<string, number> {
  const emulator = world.emulators[world.cloud];
  const counts: Record<string, number> = {};
  for (const record of emulator?.calls.records ?? [])
    if (record.fault && record.fault !== 'hook') counts[record.fault] = (counts[record.fault] ?? 0) + 1;
  return counts;
}

async function chaosLoop(world: ChaosWorld, chaos: Chaos, random: () => number, until: number): Promise<void> {
  while (Date.now() < until) {
    const roll = random();
    if (roll < 0.25) await scaleDeployment(world, 'web', Math.floor(random() * 7)).catch(() => undefined);
    else if (roll < 0.4) await chaos.killSomewhere();
    else if (roll < 0.55) await chaos.pauseLeader();
    else if (roll < 0.7) chaos.shakeListings();
    else if (roll < 0.85) chaos.dropWatches();
    else if (roll < 0.95 && world.cloud === 'outscale') await chaos.replaceGpuNode().catch(() => undefined);
    await sleep(2_000 + Math.floor(random() * 6_000));
  }
}

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const say = options.say ?? (() => undefined);
  const random = seededRandom(options.seed);
  const world = await startChaosWorld({ cloud: options.cloud, replicas: options.replicas ?? 2 });
  world.faults.reseed(options.seed);
  const monitor = new Monitor(world);
  const chaos = new Chaos(world, random, say);
  let convergedAfterLastKillMs: number | undefined;
  let final: Violation[] = [];
  let use = { instances: 0, hostingPods: 0 };
  const watchDelayMs = options.watchDelayMs ?? 0;
  delayWatches(world, watchDelayMs, options.seed);
  const busy = busyCores(options.busyCores ?? 0);
  try {
    await bringUp(world);
    chaos.superviseReplicas();
    monitor.start();
    await createDeployment(world, deployment(options.cloud, 'web', 3));
    // Only Outscale allocates GPUs apart from the instance (flexible GPUs, billed while allocated): one GPU pod
    // keeps them launched, released and garbage-collected under the chaos.
    if (options.cloud === 'outscale') await createPod(world, gpuPod(options.cloud, 'gpu'));
    chaos.startFaults();
    const until = Date.now() + options.durationMs;
    await Promise.all([
      chaosLoop(world, chaos, random, until),
      options.throttle ? throttleLoop(world, chaos, seededRandom(options.seed + 1), until) : undefined,
    ]);
    chaos.stopFaults();
    await scaleDeployment(world, 'web', 3);
    try {
      await eventually(
        'converged after the faults stopped',
        () => {
          final = convergedViolations(world.observe());
          return final.length === 0;
        },
        options.convergeTimeoutMs ?? 180_000,
      );
      convergedAfterLastKillMs = Date.now() - chaos.lastRestartAt;
      use = instanceUse(world.observe());
    } catch {
      say(`  not converged (operator logs in ${world.logDir})`);
    }
    monitor.check();
  } finally {
    for (const p of busy) p.kill('SIGKILL');
    chaos.stopSupervising();
    monitor.stop();
    await world.close();
  }
  const fenced = writesAfterLeaseLoss(auditedWrites(world), fencingRules(world));
  const violations = [...monitor.violations(), ...final, ...fenced];
  const byKind = faultCounts(world);
  return {
    cloud: options.cloud,
    seed: options.seed,
    replicas: world.replicas,
    kills: chaos.kills,
    killsAtCalls: chaos.killsAtCalls,
    pauses: chaos.pauses,
    watchDelayMs,
    throttles: chaos.throttles,
    busyCores: options.busyCores ?? 0,
    writesAfterLeaseLoss: fenced.length,
    faultsInjected: Object.values(byKind).reduce((a, b) => a + b, 0),
    faultsByKind: byKind,
    watchDrops: chaos.watchDrops,
    gpuNodesReplaced: chaos.gpuNodesReplaced,
    duplicates: violations.filter((v) => v.kind === 'duplicate-instance').length,
    leaks: violations.filter((v) => v.kind === 'leaked-instance' || v.kind === 'leaked-gpu').length,
    leakedGpus: violations.filter((v) => v.kind === 'leaked-gpu').length,
    wrongDeletions: violations.filter((v) => v.kind === 'wrong-deletion').length,
    wrongGpuRemovals: violations.filter((v) => v.kind === 'wrong-gpu-removal').length,
    instancesAtEnd: use.instances,
    instancesHostingPods: use.hostingPods,
    ...(convergedAfterLastKillMs !== undefined ? { convergedAfterLastKillMs } : {}),
    violations,
  };
}
