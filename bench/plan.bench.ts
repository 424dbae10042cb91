/**
 * `npm run bench:plan [-- --baseline REV] [--sizes 1000,5000,20000] [--runs 3]`: the whole `karpenter-eu plan`
 * process as a user runs it, next to `solve()` alone on the same problem.
 *
 * Upstream's five-kind pod mix (scheduling-workload.ts) is written as bare Pods, with a Scaleway fr-par
 * NodePool over every non-GPU type, as YAML and as kubectl's `-o json` List. Both the work tree and, with
 * `--baseline REV`, that git revision are compiled with tsc as `npm run build` compiles `dist/` (what the image
 * and `make examples` run), and timed in the same run so both sides share the machine's load.
 *
 * Columns of the table, one `node BUILD/src/cli/bin.js plan -f FILE -o json` process per run (stdout
 * kept to compare plans), after one untimed run that warms the file cache and the CLI's compile cache:
 * - wall ms, CPU ms: median over the runs; CPU is user + system of the child (GNU time), steadier than wall
 *   on a shared machine. Peak RSS: the largest of the runs.
 * - solve() cold / warm: solve() alone (below), the same for every row of a size.
 * - CPU ÷ cold solve(), CPU ÷ warm solve(): the process's CPU over solve()'s.
 * - plan: `same` when the printed plan is byte-identical to the one solve() alone gives.
 * solve() alone runs in `runs` fresh `node` processes of the work tree's build, on the input `plan` hands it
 * (the file read, admitted with the webhooks' defaults, instance types built — all untimed); medians of:
 * - cold: the first call, as a plan process makes it (code not yet optimised by V8);
 * - warm: the third call on the same input.
 * The process can never be cheaper than Node's start-up plus a cold solve(); the first line gives the former.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import type { V1Pod } from '@kubernetes/client-node';
import { makeDiversePods } from './scheduling-workload.js';

const ROOT = resolve(import.meta.dirname, '..');
const WORK = join(ROOT, '.tmp', 'bench-plan');

const nodeClass = {
  apiVersion: 'karpenter.scaleway.sh/v1alpha1',
  kind: 'ScalewayNodeClass',
  metadata: { name: 'default' },
  spec: {
    projectId: '5b8a2c1e-7f3d-4e9a-b6c0-1d2e3f4a5b6c',
    zones: ['fr-par-1', 'fr-par-2', 'fr-par-3'],
    image: 'ubuntu_jammy',
    credentialsSecretRef: { name: 'scaleway-nodeclass-credentials', namespace: 'karpenter' },
    join: {
      apiServerEndpoint: 'https://k8s.example.internal:6443',
      tokenSecretRef: { name: 'bootstrap-token', namespace: 'karpenter', key: 'token' },
    },
  },
};

const nodePool = {
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name: 'default' },
  spec: {
    template: {
      spec: {
        nodeClassRef: { group: 'karpenter.scaleway.sh', kind: 'ScalewayNodeClass', name: 'default' },
        requirements: [{ key: 'karpenter-eu.io/instance-gpu-count', operator: 'DoesNotExist' }],
      },
    },
  },
};

/** The pods as a user's manifests carry them: `apiVersion`/`kind` set, nothing else added. */
function podManifests(count: number): V1Pod[] {
  return makeDiversePods(count).map((pod) => ({ apiVersion: 'v1', kind: 'Pod', ...pod }));
}

/** Block-style YAML as `kubectl get -o yaml` writes it: two-space indent, one document per object. */
async function toYaml(objects: unknown[]): Promise<string> {
  const { stringify } = await import('yaml');
  return objects.map((o) => stringify(o, { lineWidth: 0 })).join('---\n');
}

async function writeInputs(size: number): Promise<{ yaml: string; json: string }> {
  const objects = [nodeClass, nodePool, ...podManifests(size)];
  const yaml = join(WORK, `pods-${size}.yaml`);
  const json = join(WORK, `pods-${size}.json`);
  writeFileSync(yaml, await toYaml(objects));
  writeFileSync(
    json,
    JSON.stringify({ apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, items: objects }, null, 4) + '\n',
  );
  return { yaml, json };
}

/** Compiles the work tree (rev undefined) or a git revision with tsc into WORK; returns the build's root. */
function buildCli(rev: string | undefined): string {
  const dir = join(WORK, rev ?? 'current');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let project = join(ROOT, 'tsconfig.build.json');
  if (rev) {
    const archive = execFileSync(
      'git',
      ['archive', '--format=tar', rev, 'src', 'webhooks', 'package.json', 'tsconfig.json', 'tsconfig.build.json'],
      { cwd: ROOT, maxBuffer: 1 << 30 },
    );
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
    project = join(dir, 'tsconfig.build.json');
  }
  const out = join(dir, 'dist');
  execFileSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', project, '--outDir', out, '--sourceMap', 'false'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  return out;
}

interface Sample {
  wallMs: number;
  cpuMs: number;
  rssMiB: number;
}

/** Runs one process under GNU time (the child's own CPU and peak RSS); returns its sample and stdout. */
function timeProcess(args: string[]): Sample & { stdout: Buffer } {
  const t0 = performance.now();
  const child = spawnSync('/usr/bin/time', ['-f', '%U %S %M', process.execPath, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 30,
  });
  const wallMs = performance.now() - t0;
  if (child.error) throw new Error(`bench:plan needs GNU time at /usr/bin/time for the child's CPU and peak RSS: ${child.error.message}`);
  const stderr = child.stderr.toString();
  if (child.status !== 0) throw new Error(`${args.join(' ')} exited ${child.status}: ${stderr.slice(0, 2000)}`);
  const last = stderr.trim().split('\n').at(-1) ?? '';
  const [user, system, maxKiB] = last.split(' ').map(Number);
  return { wallMs, cpuMs: ((user ?? 0) + (system ?? 0)) * 1000, rssMiB: (maxKiB ?? 0) / 1024, stdout: child.stdout };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function timePlan(build: string, file: string, runs: number): Sample & { plan: Buffer } {
  const args = [join(build, 'src', 'cli', 'bin.js'), 'plan', '-f', file, '-o', 'json'];
  const { stdout: plan } = timeProcess(args);
  const samples = Array.from({ length: runs }, () => timeProcess(args));
  return {
    wallMs: median(samples.map((s) => s.wallMs)),
    cpuMs: median(samples.map((s) => s.cpuMs)),
    rssMiB: Math.max(...samples.map((s) => s.rssMiB)),
    plan,
  };
}

/** The child that times solve() alone: plan's own steps up to solve(), untimed, from the build's modules. */
const SOLVE_ALONE = `
const [build, file] = process.argv.slice(2);
const load = (path) => import(new URL('file://' + build + '/src/' + path).href);
const { readManifestPaths } = await load('util/manifest-files.js');
const { admittedManifests, offlineDefaults } = await load('cli/commands/admitted-manifests.js');
const { schedulingInputFromManifests } = await load('domain/scheduling/manifest-input.js');
const { solve } = await load('domain/scheduling/index.js');
const { bundledInstanceTypes, planJson } = await load('cli/commands/plan.js');
const provenance = await load('cli/commands/catalog-provenance.js').catch(() => undefined);
const admitted = admittedManifests(readManifestPaths([file]).objects, offlineDefaults({}));
const { input } = schedulingInputFromManifests(admitted.objects, bundledInstanceTypes);
const timed = () => {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = solve(input);
  const wallMs = performance.now() - t0;
  const used = process.cpuUsage(cpu0);
  return { result, wallMs, cpuMs: (used.user + used.system) / 1000 };
};
const cold = timed();
timed();
const warm = timed();
process.stdout.write(JSON.stringify({
  cold: { wallMs: cold.wallMs, cpuMs: cold.cpuMs },
  warm: { wallMs: warm.wallMs, cpuMs: warm.cpuMs },
  plan: JSON.stringify(planJson(cold.result, provenance?.catalogsOfObjects(admitted.objects.map((o) => o.object))), null, 2) + '\\n',
}));
`;

interface SolveAlone {
  cold: { wallMs: number; cpuMs: number };
  warm: { wallMs: number; cpuMs: number };
  plan: string;
}

/** solve() alone in `runs` fresh processes: the median of their first calls and of their third calls. */
function timeSolve(build: string, file: string, runs: number): SolveAlone {
  const script = join(WORK, 'solve-alone.mjs');
  writeFileSync(script, SOLVE_ALONE);
  const samples = Array.from({ length: runs }, () => JSON.parse(timeProcess([script, build, file]).stdout.toString()) as SolveAlone);
  const mid = (pick: (s: SolveAlone) => number): number => median(samples.map(pick));
  return {
    cold: { wallMs: mid((s) => s.cold.wallMs), cpuMs: mid((s) => s.cold.cpuMs) },
    warm: { wallMs: mid((s) => s.warm.wallMs), cpuMs: mid((s) => s.warm.cpuMs) },
    plan: samples[0]?.plan ?? '',
  };
}

const ms = (value: number): string => value.toFixed(0);
const ratio = (a: number, b: number): string => (a / b).toFixed(2);
const row = (cells: (string | number)[]): string => `| ${cells.join(' | ')} |`;

async function mainBench(): Promise<void> {
  const { values } = parseArgs({ options: { baseline: { type: 'string' }, sizes: { type: 'string' }, runs: { type: 'string' } } });
  const sizes = (values.sizes ?? '1000,5000,20000').split(',').map(Number);
  const runs = Number(values.runs ?? 3);
  mkdirSync(WORK, { recursive: true });
  const builds: [string, string][] = [['current', buildCli(undefined)]];
  const current = builds[0]?.[1] as string;
  if (values.baseline)
    builds.unshift([
      `baseline ${execFileSync('git', ['rev-parse', '--short', values.baseline], { cwd: ROOT }).toString().trim()}`,
      buildCli(values.baseline),
    ]);
  const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const bare = timeProcess(['-e', '']);
  console.log(
    `plan -f FILE -o json, whole process (node ${process.version}, karpenter-eu ${version.version}); median of ${runs} runs; load ${loadavg()[0]?.toFixed(1)} at start`,
  );
  console.log(`node -e '' alone: ${ms(bare.wallMs)} ms wall, ${ms(bare.cpuMs)} ms CPU, ${ms(bare.rssMiB)} MiB\n`);
  console.log(
    row([
      'pods',
      'input',
      'build',
      'wall ms',
      'CPU ms',
      'peak RSS MiB',
      'solve() cold wall ms',
      'solve() cold CPU ms',
      'solve() warm CPU ms',
      'CPU ÷ cold solve()',
      'CPU ÷ warm solve()',
      'plan',
    ]),
  );
  console.log(row(Array(12).fill('---')));
  for (const size of sizes) {
    const files = await writeInputs(size);
    const alone = timeSolve(current, files.yaml, runs);
    for (const [format, file] of [
      ['yaml', files.yaml],
      ['json', files.json],
    ] as const) {
      for (const [label, build] of builds) {
        const s = timePlan(build, file, runs);
        const same = s.plan.toString() === alone.plan ? 'same' : 'DIFFERS';
        const solveCells = [ms(alone.cold.wallMs), ms(alone.cold.cpuMs), ms(alone.warm.cpuMs)];
        console.log(
          row([
            size,
            format,
            label,
            ms(s.wallMs),
            ms(s.cpuMs),
            ms(s.rssMiB),
            ...solveCells,
            ratio(s.cpuMs, alone.cold.cpuMs),
            ratio(s.cpuMs, alone.warm.cpuMs),
            same,
          ]),
        );
      }
    }
  }
  console.log(`\nload ${loadavg()[0]?.toFixed(1)} at end`);
}

await mainBench();
