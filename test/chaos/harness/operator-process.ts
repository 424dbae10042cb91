/**
 * The real `karpenter-eu run` in a child process, as an administrator would start it: flags, the clouds'
 * usual variables and a kubeconfig file, nothing else. Run from source through tsx so `npm ci` is enough, or
 * from the build (`npm run build`) as the image runs it, where memory is measured: tsx's own compiler and
 * source maps weigh on the process.
 * The harness kills it with SIGKILL (no shutdown path runs) and starts a new one, or freezes and thaws it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { projectFile } from '../../../src/testbed/demo/install.js';

export interface OperatorProcessConfig {
  args: readonly string[];
  /** Node's own flags (`--max-old-space-size=192`, as the chart's nodeOptions). */
  nodeArgs?: readonly string[];
  env: Record<string, string>;
  /** Where each run's output goes (`operator-<n>.log`), for a reader after a failure. */
  logDir: string;
  /** Names the log (`operator-<label>-<n>.log`) when several replicas run. */
  label?: string;
  /** Run `dist/src/cli/bin.js` (what the image runs) instead of the sources through tsx. */
  fromBuild?: boolean;
}

/** How the child starts: the build as the image runs it, or the sources through tsx. */
function entryArgs(fromBuild: boolean | undefined): string[] {
  return fromBuild ? [projectFile('dist/src/cli/bin.js')] : ['--import', 'tsx', projectFile('src/cli/bin.ts')];
}

export interface OperatorProcess {
  readonly pid: number;
  /** Resolves with the exit code or signal once the process is gone. */
  readonly exited: Promise<string>;
  kill(): Promise<void>;
  /** SIGSTOP: the process freezes where it is, as in a long GC pause or a VM frozen for live migration. */
  pause(): void;
  /** SIGCONT: it wakes with every timer overdue and whatever its sockets buffered meanwhile. */
  resume(): void;
}

let runs = 0;

export function startOperatorProcess(config: OperatorProcessConfig): OperatorProcess {
  const log: WriteStream = createWriteStream(join(config.logDir, `operator-${config.label ? `${config.label}-` : ''}${++runs}.log`));
  const child: ChildProcess = spawn(process.execPath, [...(config.nodeArgs ?? []), ...entryArgs(config.fromBuild), 'run', ...config.args], {
    cwd: projectFile('.'),
    env: { PATH: process.env.PATH ?? '', ...config.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  // A test process that ends (a timeout tearing its worker down) must not leave an operator running.
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => {
      process.off('exit', killOnExit);
      log.end();
      resolve(signal ?? String(code));
    });
  });
  if (child.pid === undefined) throw new Error('starting karpenter-eu run: the child process has no pid');
  return {
    pid: child.pid,
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    pause() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGSTOP');
    },
    resume() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGCONT');
    },
  };
}
