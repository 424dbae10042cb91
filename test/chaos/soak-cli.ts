/**
 * `npm run chaos -- [--cloud C] [--minutes N] [--seed S] [--replicas R] [--watch-delay-ms D] [--throttle on|off]
 * [--busy-cores K]`: the long soak, per cloud (all three at once by default), with R operator replicas (default 2),
 * watch events up to D ms late (default 250, 0: none), the replicas throttled by short SIGSTOP bursts (default on)
 * and K busy processes taking a core each (default 0), printing kills made, leaders frozen past their lease,
 * faults injected, GPU nodes replaced, duplicates, leaks (GPUs apart), wrong deletions of instances and GPUs,
 * writes after lease loss, the instances left and how many run the workload, and the time for all pods to run
 * after the last restart. Exit 1 if any invariant broke, 2 on a bad flag.
 */
import { runSoak, type SoakReport } from './harness/soak.js';
import type { ChaosCloud } from './harness/observe.js';

const Clouds: readonly ChaosCloud[] = ['ovhcloud', 'scaleway', 'outscale'];

interface Flags {
  clouds: ChaosCloud[];
  minutes: number;
  seed: number;
  replicas: number;
  watchDelayMs: number;
  throttle: boolean;
  busyCores: number;
}

class FlagError extends Error {}

function parseFlags(argv: readonly string[]): Flags {
  const flags: Flags = {
    clouds: [...Clouds],
    minutes: 10,
    seed: Math.floor(Math.random() * 2 ** 31),
    replicas: 2,
    watchDelayMs: 250,
    throttle: true,
    busyCores: 0,
  };
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = (argv[i] as string).split('=', 2) as [string, string | undefined];
    const value = inline ?? argv[++i];
    if (value === undefined) throw new FlagError(`${name}: a value is needed after the flag`);
    if (name === '--cloud') {
      if (value !== 'all' && !Clouds.includes(value as ChaosCloud))
        throw new FlagError(`--cloud: "${value}" is not a cloud; accepted: ${Clouds.join(', ')}, all`);
      flags.clouds = value === 'all' ? [...Clouds] : [value as ChaosCloud];
    } else if (name === '--minutes') {
      flags.minutes = Number(value);
      if (!Number.isFinite(flags.minutes) || flags.minutes <= 0)
        throw new FlagError(`--minutes: "${value}" is not a duration; accepted: a positive number of minutes`);
    } else if (name === '--seed') {
      flags.seed = Number(value);
      if (!Number.isSafeInteger(flags.seed) || flags.seed < 0)
        throw new FlagError(`--seed: "${value}" is not a seed; accepted: a non-negative integer`);
    } else if (name === '--replicas') {
      flags.replicas = Number(value);
      if (!Number.isSafeInteger(flags.replicas) || flags.replicas < 1 || flags.replicas > 3)
        throw new FlagError(`--replicas: "${value}" is not a replica count; accepted: 1, 2 or 3`);
    } else if (name === '--watch-delay-ms') {
      flags.watchDelayMs = Number(value);
      if (!Number.isSafeInteger(flags.watchDelayMs) || flags.watchDelayMs < 0 || flags.watchDelayMs > 10_000)
        throw new FlagError(`--watch-delay-ms: "${value}" is not a delay; accepted: an integer number of ms from 0 (none) to 10000`);
    } else if (name === '--throttle') {
      if (value !== 'on' && value !== 'off') throw new FlagError(`--throttle: "${value}" is not a switch; accepted: on, off`);
      flags.throttle = value === 'on';
    } else if (name === '--busy-cores') {
      flags.busyCores = Number(value);
      if (!Number.isSafeInteger(flags.busyCores) || flags.busyCores < 0 || flags.busyCores > 64)
        throw new FlagError(`--busy-cores: "${value}" is not a process count; accepted: an integer from 0 to 64`);
    } else {
      throw new FlagError(
        `unknown flag ${name}; accepted: --cloud, --minutes, --seed, --replicas, --watch-delay-ms, --throttle, --busy-cores`,
      );
    }
  }
  return flags;
}

function line(r: SoakReport): string {
  const converged = r.convergedAfterLastKillMs === undefined ? 'never' : `${(r.convergedAfterLastKillMs / 1000).toFixed(1)} s`;
  const kinds = Object.entries(r.faultsByKind)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  const slow = `watch delay ≤${r.watchDelayMs} ms, throttling bursts ${r.throttles}, busy cores ${r.busyCores}`;
  const end = `instances at the end ${r.instancesAtEnd} (${r.instancesHostingPods} running the workload)`;
  return `${r.cloud.padEnd(9)} seed ${r.seed}, ${r.replicas} replica(s): ${slow}, kills ${r.kills} (${r.killsAtCalls} at a cloud call), leaders frozen ${r.pauses}, faults injected ${r.faultsInjected} (${kinds}), watch drops ${r.watchDrops}, gpu nodes replaced ${r.gpuNodesReplaced}, duplicates ${r.duplicates}, leaks ${r.leaks} (gpus ${r.leakedGpus}), wrong deletions ${r.wrongDeletions} (gpus ${r.wrongGpuRemovals}), writes after lease loss ${r.writesAfterLeaseLoss}, ${end}, all pods running ${converged} after the last restart`;
}

async function main(): Promise<number> {
  let flags: Flags;
  try {
    flags = parseFlags(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof FlagError)) throw error;
    process.stderr.write(`chaos: ${error.message}\n`);
    return 2;
  }
  process.stdout.write(
    `chaos soak: ${flags.clouds.join(', ')} for ${flags.minutes} min each, ${flags.replicas} replica(s), watch delay ≤${flags.watchDelayMs} ms, throttling ${flags.throttle ? 'on' : 'off'}, busy cores ${flags.busyCores}, seed ${flags.seed} (replay with --seed ${flags.seed})\n`,
  );
  const reports = await Promise.all(
    flags.clouds.map((cloud) =>
      runSoak({
        cloud,
        durationMs: flags.minutes * 60_000,
        seed: flags.seed,
        replicas: flags.replicas,
        watchDelayMs: flags.watchDelayMs,
        throttle: flags.throttle,
        busyCores: flags.busyCores,
        say: (l) => process.stdout.write(`[${cloud}] ${l}\n`),
      }),
    ),
  );
  for (const r of reports) {
    process.stdout.write(`${line(r)}\n`);
    for (const v of r.violations) process.stdout.write(`  ${v.kind}: ${v.detail}\n`);
  }
  return reports.some((r) => r.violations.length > 0) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`chaos: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
