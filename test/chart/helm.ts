/** Runs the real Helm 3.17 (unpacked from a devDependency by scripts/real-binaries.ts) on the karpenter-eu chart. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { ensureRealBinaries } from '../../scripts/real-binaries.js';

export const realBinaries = ensureRealBinaries();

export interface HelmResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Helm's failure: its exit status and stderr, e.g. `values don't meet the specifications of the schema(s)…`. */
export class HelmError extends Error {
  constructor(
    readonly args: string[],
    readonly result: HelmResult,
  ) {
    super(`helm ${args[0]} exited ${result.status}: ${result.stderr.trim()}`);
  }
}

/** Runs helm with a private home, so no user's repositories, plugins or kubeconfig leak in. */
export function helm(args: string[], env: Record<string, string> = {}): HelmResult {
  const home = mkdtempSync(join(tmpdir(), 'helm-home-'));
  try {
    const result = spawnSync(realBinaries.helm, args, {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        HELM_CACHE_HOME: join(home, 'cache'),
        HELM_CONFIG_HOME: join(home, 'config'),
        HELM_DATA_HOME: join(home, 'data'),
        KUBECONFIG: join(home, 'no-kubeconfig'),
        ...env,
      },
    });
    if (result.error) throw result.error;
    return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

export function helmOrThrow(args: string[], env: Record<string, string> = {}): HelmResult {
  const result = helm(args, env);
  if (result.status !== 0) throw new HelmError(args, result);
  return result;
}

export interface ValuesArguments {
  /** Merged over values.yaml as one `-f` file. */
  values?: Record<string, unknown>;
  /** Raw `--set` assignments, exactly as a user types them after `--set`. */
  set?: string[];
}

/** `-f <file> --set …` for a values map and --set lines; the caller removes `dir` when done. */
export function valuesArguments({ values, set = [] }: ValuesArguments, dir: string): string[] {
  const args: string[] = [];
  if (values && Object.keys(values).length > 0) {
    const file = join(dir, 'values.yaml');
    writeFileSync(file, YAML.stringify(values));
    args.push('-f', file);
  }
  for (const assignment of set) args.push('--set', assignment);
  return args;
}

/** Runs helm with the values written to a temporary file. */
export function helmWithValues(args: string[], values: ValuesArguments, env: Record<string, string> = {}): HelmResult {
  const dir = mkdtempSync(join(tmpdir(), 'helm-values-'));
  try {
    return helmOrThrow([...args, ...valuesArguments(values, dir)], env);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface RenderedDocument {
  /** `crds/<file>` or `templates/<file>`. */
  source: string;
  object: Record<string, unknown>;
}

/** Splits `helm template` output into its objects, each with the file it came from. */
export function parseManifests(stream: string): RenderedDocument[] {
  return stream
    .split(/^---\s*$/m)
    .map((chunk) => ({
      source: /^# Source: [^/]+\/(\S+)$/m.exec(chunk)?.[1] ?? '',
      object: YAML.parse(chunk) as Record<string, unknown> | null,
    }))
    .filter((d): d is RenderedDocument => d.object !== null && typeof d.object === 'object');
}
