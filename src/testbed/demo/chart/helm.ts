/**
 * Helm 3 as a user types it against the demo cluster: a separate process with its own home (no user's
 * repositories, plugins or kubeconfig leak in), pointed at the demo's kubeconfig file.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectFile } from '../install.js';
import { ChartDemoError } from './errors.js';

/** The Helm `npm ci` unpacks (scripts/real-binaries.ts), else the one on PATH. */
export function defaultHelm(): string {
  const unpacked = projectFile('node_modules/.bin-real/helm');
  return existsSync(unpacked) ? unpacked : 'helm';
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
  const home = mkdtempSync(join(tmpdir(), 'karpenter-eu-helm-'));
  const env = {
    PATH: process.env.PATH ?? '',
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
