/**
 * A seeded soak on one cloud: the workload scales up and down while the cloud answers with 5xx, 429,
 * timeouts, lost replies and empty or truncated 200s, listings lag 0–30 s, the API server drops its watches,
 * and the operator is SIGKILLed at random cloud calls and restarted. Invariants are watched throughout; at the
 * end the faults stop and the world must converge. The same seed replays the same choices.
 */
import type { Fault, FaultRule } from '../../../src/testbed/emulators/faults.js';
import { convergedViolations, type Violation } from './invariants.js';
import { Monitor } from './monitor.js';
import type { ChaosCloud } from './observe.js';
import { bringUp, createDeployment, deployment, eventually, scaleDeployment } from './workload.js';
import { type ChaosWorld, startChaosWorld } from './world.js';
import { seededRandom } from '../../../src/util/seeded-random.js';

export interface SoakOptions {
  cloud: ChaosCloud;
  durationMs: number;
  seed: number;
  /** How long the world may take to converge once the faults stop. */
  convergeTimeoutMs?: number;
  /** Progress lines (the CLI prints them; tests pass nothing). */
  say?: (line: string) => void;
}

export interface SoakReport {
  cloud: ChaosCloud;
  seed: number;
  kills: number;
  /** Kills made at a cloud call (the rest landed between calls). */
  killsAtCalls: number;
  faultsInjected: number;
  faultsByKind: Record<string, number>;
  watchDrops: number;
  duplicates: number;
  leaks: number;
  wrongDeletions: number;
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
  watchDrops = 0;
  lastRestartAt = Date.now();
  private readonly ruleIds: number[] = [];

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
              await this.world.killOperator();
              firedAt = req.action;
            },
          },
        }),
      );
    }
    await scaleDeployment(this.world, 'web', Math.floor(this.random() * 7)).catch(() => undefined);
    await eventually('a call that changes the cloud', () => firedAt !== undefined, 20_000).catch(() => undefined);
    disarm();
    if (firedAt === undefined) await this.world.killOperator();
    this.kills += 1;
    if (firedAt !== undefined) this.killsAtCalls += 1;
    this.say(`  kill ${this.kills} ${firedAt ? `${then === 'answer' ? 'after' : 'at'} ${firedAt}` : 'between calls'}`);
    this.world.startOperator();
    this.lastRestartAt = Date.now();
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
    if (roll < 0.3) await scaleDeployment(world, 'web', Math.floor(random() * 7)).catch(() => undefined);
    else if (roll < 0.5) await chaos.killSomewhere();
    else if (roll < 0.7) chaos.shakeListings();
    else if (roll < 0.85) chaos.dropWatches();
    await sleep(2_000 + Math.floor(random() * 6_000));
  }
}

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const say = options.say ?? (() => undefined);
  const random = seededRandom(options.seed);
  const world = await startChaosWorld({ cloud: options.cloud });
  world.faults.reseed(options.seed);
  const monitor = new Monitor(world);
  const chaos = new Chaos(world, random, say);
  let convergedAfterLastKillMs: number | undefined;
  let final: Violation[] = [];
  try {
    await bringUp(world);
    monitor.start();
    await createDeployment(world, deployment(options.cloud, 'web', 3));
    chaos.startFaults();
    await chaosLoop(world, chaos, random, Date.now() + options.durationMs);
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
    } catch {
      say(`  not converged (operator logs in ${world.logDir})`);
    }
    monitor.check();
  } finally {
    monitor.stop();
    await world.close();
  }
  const violations = [...monitor.violations(), ...final];
  const byKind = faultCounts(world);
  return {
    cloud: options.cloud,
    seed: options.seed,
    kills: chaos.kills,
    killsAtCalls: chaos.killsAtCalls,
    faultsInjected: Object.values(byKind).reduce((a, b) => a + b, 0),
    faultsByKind: byKind,
    watchDrops: chaos.watchDrops,
    duplicates: violations.filter((v) => v.kind === 'duplicate-instance').length,
    leaks: violations.filter((v) => v.kind === 'leaked-instance' || v.kind === 'leaked-gpu').length,
    wrongDeletions: violations.filter((v) => v.kind === 'wrong-deletion').length,
    ...(convergedAfterLastKillMs !== undefined ? { convergedAfterLastKillMs } : {}),
    violations,
  };
}
