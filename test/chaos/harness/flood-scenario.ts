/**
 * The real `karpenter-eu run` under the chart's heap limit, flooded on both request ports at once with many
 * concurrent large bodies (each under its endpoint's limit): the process must stay up, /healthz answer during
 * the flood, the excess be refused with 429 and Retry-After, and the controllers go on reconciling (a new
 * Deployment gets nodes and every pod runs).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { projectFile } from '../../../src/testbed/demo/install.js';
import { type FloodOutcome, peakRssMiB, rssMiB } from './flood.js';
import { bringUp, converged, createDeployment, deployment } from './workload.js';
import { startChaosWorld } from './world.js';

export interface FloodPlan {
  /** Concurrent requests on each port. */
  requests: number;
  /** Bytes of each body. */
  bodyBytes: number;
  /** `run` flags after the harness's own (the budget). */
  extraArgs?: readonly string[];
  /** Flood the build (`npm run build` first), as the image runs it: the figure to compare with the chart's limit. */
  fromBuild?: boolean;
}

export interface FloodReport {
  webhook: FloodOutcome;
  extender: FloodOutcome;
  /** The liveness probe (/healthz on the metrics port) while the flood ran. */
  healthz: Probes;
  /** Whether the operator process was still running after the flood. */
  alive: boolean;
  rssBeforeMiB?: number;
  peakRssMiB?: number;
  /** From the Deployment's creation after the flood to every pod running (ms). */
  convergedAfterMs?: number;
  /** Why the Deployment created after the flood did not converge. */
  notConverged?: string;
  logDir: string;
}

/** The chart's `nodeOptions` default. */
export const ChartHeapArgs = ['--max-old-space-size=192'];

/** The chart's leader election timings: the harness's 3 s lease is for kill tests, not for a loaded process. */
const ChartLeaseArgs = [
  '--leader-election-lease-duration=15s',
  '--leader-election-renew-deadline=10s',
  '--leader-election-retry-period=2s',
];

/** Floods both ports from a child process (flood-client.ts). */
async function floodFromAnotherProcess(
  urls: { webhook: string; extender: string },
  plan: FloodPlan,
): Promise<[FloodOutcome, FloodOutcome]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      '--import',
      'tsx',
      projectFile('test/chaos/harness/flood-client.ts'),
      urls.webhook,
      urls.extender,
      String(plan.requests),
      String(plan.bodyBytes),
    ],
    { cwd: projectFile('.'), maxBuffer: 16 * 1024 * 1024 },
  );
  const outcome = JSON.parse(stdout) as { webhook: FloodOutcome; extender: FloodOutcome };
  return [outcome.webhook, outcome.extender];
}

/** The chart's liveness probe: timeoutSeconds 5, failureThreshold 3. */
const ProbeTimeoutMs = 5000;
export const ProbeFailureThreshold = 3;

export interface Probes {
  /** Answers seen (status → count; 0: no answer in time). */
  statuses: Record<number, number>;
  /** The longest run of probes in a row without a 200 (the kubelet restarts the pod at the failure threshold). */
  longestFailureRun: number;
  /** Why a probe got no answer. */
  errors: string[];
}

async function probeWhile(url: string, until: Promise<unknown>): Promise<Probes> {
  const probes: Probes = { statuses: {}, longestFailureRun: 0, errors: [] };
  let done = false;
  let run = 0;
  void until.finally(() => (done = true));
  while (!done) {
    const status = await fetch(url, { signal: AbortSignal.timeout(ProbeTimeoutMs) }).then(
      (r) => r.status,
      (error: Error) => {
        probes.errors.push(`${error.message} ${String((error.cause as Error | undefined)?.message ?? '')}`.trim());
        return 0;
      },
    );
    probes.statuses[status] = (probes.statuses[status] ?? 0) + 1;
    run = status === 200 ? 0 : run + 1;
    probes.longestFailureRun = Math.max(probes.longestFailureRun, run);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return probes;
}

export async function runFlood(plan: FloodPlan): Promise<FloodReport> {
  const world = await startChaosWorld({
    cloud: 'scaleway',
    nodeArgs: ChartHeapArgs,
    extraArgs: [...ChartLeaseArgs, ...(plan.extraArgs ?? [])],
    ...(plan.fromBuild ? { fromBuild: true } : {}),
  });
  try {
    await bringUp(world);
    const operator = world.operator();
    if (!operator) throw new Error('no operator process after bring-up');
    let alive = true;
    void operator.exited.then(() => (alive = false));
    const rssBeforeMiB = await rssMiB(operator.pid);
    const floods = floodFromAnotherProcess(world.urls, plan);
    const healthz = probeWhile(`${world.urls.metrics}/healthz`, floods);
    // Sampled during the flood: a process that dies takes its VmHWM with it.
    let peak = 0;
    const sampler = setInterval(() => void peakRssMiB(operator.pid).then((p) => (peak = Math.max(peak, p ?? 0))), 200);
    void floods.finally(() => clearInterval(sampler));
    const [webhook, extender] = await floods;
    const report: FloodReport = {
      webhook,
      extender,
      healthz: await healthz,
      alive,
      ...optionalNumber('rssBeforeMiB', rssBeforeMiB),
      ...optionalNumber('peakRssMiB', Math.max(peak, (await peakRssMiB(operator.pid)) ?? 0) || undefined),
      logDir: world.logDir,
    };
    if (!alive) return report;
    const started = Date.now();
    await createDeployment(world, deployment('scaleway', 'after-flood', 2));
    try {
      await converged(world, 120_000);
    } catch (error) {
      return { ...report, alive, notConverged: (error as Error).message };
    }
    return { ...report, alive, convergedAfterMs: Date.now() - started };
  } finally {
    await world.close();
  }
}

function optionalNumber<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}
