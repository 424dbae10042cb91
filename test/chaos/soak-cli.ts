/**
 * `npm run chaos -- [--cloud C] [--minutes N] [--seed S] [--replicas R]`: the long soak, per cloud (all three at
 * once by default), with R operator replicas (default 2), printing kills made, leaders frozen past their lease,
 * faults injected, GPU nodes replaced, duplicates, leaks, wrong deletions, writes after lease loss and the time for all pods to run
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
}

class FlagError extends Error {}

function parseFlags(argv: readonly string[]): Flags {
  const flags: Flags = { clouds: [...Clouds], minutes: 10, seed: Math.floor(Math.random() * 2 ** 31), replicas: 2 };
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
    } else {
      throw new FlagError(`unknown flag ${name}; accepted: --cloud, --minutes, --seed, --replicas`);
    }
  }
  return flags;
}

function line(r: SoakReport): string {
  const converged = r.convergedAfterLastKillMs === undefined ? 'never' : `${(r.convergedAfterLastKillMs / 1000).toFixed(1)} s`;
  const kinds = Object.entries(r.faultsByKind)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return `${r.cloud.padEnd(9)} seed ${r.seed}, ${r.replicas} replica(s): kills ${r.kills} (${r.killsAtCalls} at a cloud call), leaders frozen ${r.pauses}, faults injected ${r.faultsInjected} (${kinds}), watch drops ${r.watchDrops}, gpu nodes replaced ${r.gpuNodesReplaced}, duplicates ${r.duplicates}, leaks ${r.leaks}, wrong deletions ${r.wrongDeletions}, writes after lease loss ${r.writesAfterLeaseLoss}, all pods running ${converged} after the last restart`;
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
    `chaos soak: ${flags.clouds.join(', ')} for ${flags.minutes} min each, ${flags.replicas} replica(s), seed ${flags.seed} (replay with --seed ${flags.seed})\n`,
  );
  const reports = await Promise.all(
    flags.clouds.map((cloud) =>
      runSoak({
        cloud,
        durationMs: flags.minutes * 60_000,
        seed: flags.seed,
        replicas: flags.replicas,
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
