/**
 * `npm run bench:plan [-- --baseline REV] [--sizes 1000,5000,20000] [--runs 3]`: the whole `karpenter-eu plan`
 * process as a user runs it, next to `solve()` alone on the same pods.
 *
 * Upstream's five-kind pod mix (scheduling-workload.ts) is written as bare Pods, with a Scaleway fr-par
 * NodePool over every non-GPU type, as YAML and as kubectl's `-o json` List. Each file is planned by a fresh
 * `node` process (`plan -f FILE -o json`, stdout discarded): wall time, CPU time and peak RSS (median of the
 * runs). `solve()` is then timed in this process on the input the same file yields. With `--baseline REV`,
 * the CLI of that git revision is built the same way and timed in the same run, so both sides share the
 * machine's load.
 *
 * The CLI is bundled with esbuild (one chunk per lazily loaded command, packages from node_modules) so both
 * revisions start the way a built `dist/` does, without a TypeScript loader in the measurement.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { V1Pod } from '@kubernetes/client-node';
import { bundledInstanceTypes } from '../src/cli/commands/plan.js';
import { solve } from '../src/domain/scheduling/index.js';
import { schedulingInputFromManifests } from '../src/domain/scheduling/manifest-input.js';
import { readManifestPaths } from '../src/util/manifest-files.js';
import { makeDiversePods } from './scheduling-workload.js';

const ROOT = resolve(import.meta.dirname, '..');
const WORK = join(ROOT, '.tmp', 'bench-plan');

const nodeClass = {
  apiVersion: 'karpenter.scaleway.sh/v1alpha1',
  kind: 'ScalewayNodeClass',
  metadata: { name: 'default' },
  spec: { projectId: '5b8a2c1e-7f3d-4e9a-b6c0-1d2e3f4a5b6c', zones: ['fr-par-1', 'fr-par-2', 'fr-par-3'], image: 'ubuntu_jammy' },
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
  writeFileSync(json, JSON.stringify({ apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, items: objects }, null, 4) + '\n');
  return { yaml, json };
}

/** Bundles the CLI of the work tree (rev undefined) or of a git revision into WORK; returns the entry file. */
function buildCli(rev: string | undefined): string {
  const label = rev ?? 'current';
  const dir = join(WORK, label);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let sourceRoot = ROOT;
  if (rev) {
    const archive = execFileSync('git', ['archive', '--format=tar', rev, 'src', 'webhooks', 'package.json'], { cwd: ROOT, maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
    sourceRoot = dir;
  }
  const out = join(dir, 'dist');
  // Splitting keeps each lazily imported command (and the packages only it imports) out of start-up, as in dist/.
  const args = [join(sourceRoot, 'src/cli/bin.ts'), '--bundle', '--splitting', '--platform=node', '--format=esm', '--packages=external', '--log-level=warning', '--out-extension:.js=.mjs', `--outdir=${out}`];
  execFileSync(join(ROOT, 'node_modules', '.bin', 'esbuild'), args, { cwd: ROOT, stdio: 'inherit' });
  return join(out, 'bin.mjs');
}

interface Sample {
  wallMs: number;
  cpuMs: number;
  rssMiB: number;
}

/** Runs one `plan` process; CPU and peak RSS come from GNU time (the child's own rusage). */
function runPlan(bin: string, file: string): Sample {
  const t0 = performance.now();
  const child = spawnSync('/usr/bin/time', ['-f', '%U %S %M', process.execPath, bin, 'plan', '-f', file, '-o', 'json'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 });
  const wallMs = performance.now() - t0;
  if (child.error) throw new Error(`bench:plan needs GNU time at /usr/bin/time for the child's CPU and peak RSS: ${child.error.message}`);
  const stderr = child.stderr.toString();
  if (child.status !== 0) throw new Error(`plan ${file} exited ${child.status}: ${stderr.slice(0, 2000)}`);
  const last = stderr.trim().split('\n').at(-1) ?? '';
  const [user, system, maxKiB] = last.split(' ').map(Number);
  return { wallMs, cpuMs: ((user ?? 0) + (system ?? 0)) * 1000, rssMiB: (maxKiB ?? 0) / 1024 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function timePlan(bin: string, file: string, runs: number): Sample {
  const samples = Array.from({ length: runs }, () => runPlan(bin, file));
  return { wallMs: median(samples.map((s) => s.wallMs)), cpuMs: median(samples.map((s) => s.cpuMs)), rssMiB: Math.max(...samples.map((s) => s.rssMiB)) };
}

/** solve() alone, in this process, on what the file yields (median of the runs after one warm-up). */
function timeSolve(file: string, runs: number): { wallMs: number; cpuMs: number } {
  const manifests = readManifestPaths([file]);
  const { input } = schedulingInputFromManifests(manifests.objects, bundledInstanceTypes);
  solve(input);
  const samples = Array.from({ length: runs }, () => {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    solve(input);
    const wallMs = performance.now() - t0;
    const used = process.cpuUsage(cpu0);
    return { wallMs, cpuMs: (used.user + used.system) / 1000 };
  });
  return { wallMs: median(samples.map((s) => s.wallMs)), cpuMs: median(samples.map((s) => s.cpuMs)) };
}

const cell = (value: number, width: number): string => value.toFixed(0).padStart(width);

async function mainBench(): Promise<void> {
  const { values } = parseArgs({ options: { baseline: { type: 'string' }, sizes: { type: 'string' }, runs: { type: 'string' } } });
  const sizes = (values.sizes ?? '1000,5000,20000').split(',').map(Number);
  const runs = Number(values.runs ?? 3);
  mkdirSync(WORK, { recursive: true });
  const builds: [string, string][] = [['current', buildCli(undefined)]];
  if (values.baseline) builds.unshift([`baseline ${values.baseline}`, buildCli(values.baseline)]);
  const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  console.log(`plan -f FILE -o json, whole process (node ${process.version}, karpenter-eu ${version.version}); median of ${runs}; solve() alone in-process`);
  console.log('pods    input  build                      wall ms   cpu ms  peak RSS MiB  solve() wall ms  solve() cpu ms  wall/solve  cpu/solve');
  for (const size of sizes) {
    const files = await writeInputs(size);
    const solved = timeSolve(files.yaml, runs);
    for (const [format, file] of [['yaml', files.yaml], ['json', files.json]] as const) {
      for (const [label, bin] of builds) {
        const s = timePlan(bin, file, runs);
        console.log([String(size).padEnd(6), format.padEnd(5), label.padEnd(24), cell(s.wallMs, 9), cell(s.cpuMs, 8), cell(s.rssMiB, 13), cell(solved.wallMs, 16), cell(solved.cpuMs, 15), (s.wallMs / solved.wallMs).toFixed(2).padStart(11), (s.cpuMs / solved.cpuMs).toFixed(2).padStart(10)].join('  '));
      }
    }
  }
}

await mainBench();
