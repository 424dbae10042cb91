/**
 * `karpenter-eu run`: the service (webhooks + extender + metrics on every replica, controllers while leading)
 * against the cluster of KUBECONFIG or the in-cluster configuration. SIGTERM/SIGINT shut it down gracefully.
 * The cluster, the cloud accounts and the API server's reach are checked before anything starts.
 */
import { randomBytes } from 'node:crypto';
import { defaultControllers } from '../../operator/default-controllers.js';
import { startOperator } from '../../operator/operator.js';
import { type OperatorConfig, optionsHelp, parseOperatorOptions, UnknownOptionError } from '../../operator/options.js';
import { SystemClock } from '../../util/clock.js';
import { createLogger, credentialValuesOf } from '../../util/logger.js';
import { type Command, UsageError } from '../errors.js';
import { VERSION } from '../version.js';
import { cloudEndpoints, probeApiServer, requireCloud, resolveKubeConfig } from './run-preflight.js';

const HELP = `usage: karpenter-eu run [options]

Runs the autoscaler: admission webhooks (HTTPS), scheduler extender and metrics on every replica, and the
controllers on the replica holding the leader-election Lease. Each option can also be set by the
environment variable in brackets; cloud accounts come from OVH_*, SCW_* and OSC_* variables.

options:
${optionsHelp()}
`;

function parse(argv: string[], env: Readonly<Record<string, string | undefined>>): OperatorConfig {
  try {
    return parseOperatorOptions(argv, env);
  } catch (error) {
    if (error instanceof UnknownOptionError) throw new UsageError(`unknown flag: ${error.flag}; see 'karpenter-eu run --help'`);
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** How long the start-up probe waits for the API server's GET /version. */
const PROBE_TIMEOUT_MS = 10_000;

/** Resolves on the first SIGTERM or SIGINT; the returned function removes the handlers. */
function onTerminationSignal(handler: (signal: string) => void): () => void {
  const listener = (signal: NodeJS.Signals): void => handler(signal);
  process.once('SIGTERM', listener);
  process.once('SIGINT', listener);
  return () => {
    process.off('SIGTERM', listener);
    process.off('SIGINT', listener);
  };
}

export const runCommand: Command = async (argv, io) => {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(HELP);
    return 0;
  }
  const parsed = parse(argv, io.env);
  const kubeConfig = resolveKubeConfig(parsed, io.env);
  requireCloud(parsed.clouds);
  const kubernetesVersion = await probeApiServer(kubeConfig, PROBE_TIMEOUT_MS);
  // Two processes of one pod (a restart racing its predecessor) must never share a lease identity.
  const config: OperatorConfig = {
    ...parsed,
    leaderElection: { ...parsed.leaderElection, identity: `${parsed.leaderElection.identity}_${randomBytes(4).toString('hex')}` },
  };
  const clock = new SystemClock();
  const logger = createLogger({
    clock,
    level: config.logLevel,
    sink: (line) => io.stdout(`${line}\n`),
    fields: { component: 'karpenter-eu' },
    secrets: credentialValuesOf(io.env),
  });
  const starting = new AbortController();
  let stop: (() => Promise<void>) | undefined;
  // Installed before the start: a SIGTERM while the caches sync must still shut down cleanly.
  const removeHandlers = onTerminationSignal((signal) => {
    logger.info('received signal, shutting down', { signal });
    starting.abort(new Error(`received ${signal}`));
    void stop?.();
  });
  try {
    const operator = await startOperator({
      config,
      kubeConfig,
      clock,
      logger,
      controllers: defaultControllers,
      signal: starting.signal,
      commit: io.env.KARPENTER_EU_COMMIT,
    });
    stop = operator.stop;
    logger.info('serving', {
      version: VERSION,
      apiServer: kubeConfig.getCurrentCluster()?.server,
      kubernetesVersion,
      clouds: cloudEndpoints(config.clouds),
      webhook: operator.webhookUrl,
      extender: operator.extenderUrl,
      metrics: operator.metricsUrl,
      leaderElection: config.leaderElection.enabled
        ? { identity: config.leaderElection.identity, lease: `${config.leaderElection.leaseNamespace}/${config.leaderElection.leaseName}` }
        : 'disabled',
    });
    if (starting.signal.aborted) await operator.stop();
    try {
      await operator.done;
      return 0;
    } catch (error) {
      logger.error('operator stopped', { error });
      return 1;
    } finally {
      await operator.stop();
    }
  } catch (error) {
    if (starting.signal.aborted) return 0;
    throw error;
  } finally {
    removeHandlers();
  }
};
