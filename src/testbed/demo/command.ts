/**
 * `karpenter-eu demo`: the embedded default. Starts the simulated cluster and the cloud emulators on
 * loopback, runs the same service as `run` against them (only endpoints and credentials differ), plays the
 * scripted scenario and prints its timeline and a cost summary. Exit 0 when every step passed.
 */
import { type Command, UsageError } from '../../cli/errors.js';
import { helpFlag, parseFlags } from '../../cli/flags.js';
import { defaultControllers } from '../../operator/default-controllers.js';
import { SystemClock } from '../../util/clock.js';
import { createLogger, parseLogLevel } from '../../util/logger.js';
import { type DemoCloud, DemoClouds } from './environment.js';
import { runDemo } from './run-demo.js';
import { ChartDemoError, type FromChartOptions } from './chart/start.js';

const HELP = `usage: karpenter-eu demo [options]

Plays a scripted scenario against a local simulated cluster and cloud emulators (no cloud account, no real
cluster): NodePools admitted or refused, scale up on the cheapest flavors, zone spread, a GPU pod,
consolidation and drift, then a table of nodes with reasons and the hourly cost.

options:
  --cloud C           only this cloud (repeatable); accepted: ${DemoClouds.join(', ')} (default: all)
  --keep-running      keep the cluster up after the scenario and print a kubeconfig path for kubectl
  --quiet             print only step results and the summary
  --log-level L       also print the service's own JSON logs at this level (debug, info, warn, error)
  --from-chart        helm install manifests/chart into the demo cluster and run the service from the Deployment the
                      release created: its args, environment (Secrets resolved), mounted files, ports; the API server
                      and the scheduler use the webhook configurations and the extender of the release
  --chart DIR         with --from-chart: this chart instead of manifests/chart
  --set K=V           with --from-chart: one more Helm --set after the demo's own (repeatable)
  --helm PATH         with --from-chart: the helm binary (default: node_modules/.bin-real/helm)
  -h, --help          this help
`;

interface DemoArgs {
  clouds: DemoCloud[];
  keepRunning: boolean;
  quiet: boolean;
  logLevel?: string;
  fromChart?: FromChartOptions;
}

function parse(argv: string[]): DemoArgs | 'help' {
  const { values } = parseFlags('demo', argv, {
    cloud: { type: 'string', multiple: true },
    'keep-running': { type: 'boolean' },
    quiet: { type: 'boolean' },
    'log-level': { type: 'string' },
    'from-chart': { type: 'boolean' },
    chart: { type: 'string' },
    set: { type: 'string', multiple: true },
    helm: { type: 'string' },
    ...helpFlag,
  });
  if (values.help) return 'help';
  const clouds = (values.cloud ?? []).map((raw) => {
    const c = raw.toLowerCase();
    if (!(DemoClouds as readonly string[]).includes(c))
      throw new UsageError(`--cloud ${JSON.stringify(raw)} is not supported by the demo; accepted: ${DemoClouds.join(', ')}`);
    return c as DemoCloud;
  });
  const chartFlags = ['chart', 'set', 'helm'].filter((f) => values[f as 'chart'] !== undefined);
  if (!values['from-chart'] && chartFlags.length > 0)
    throw new UsageError(`--${chartFlags[0]} is a --from-chart option; add --from-chart or remove it`);
  const fromChart: FromChartOptions | undefined = values['from-chart']
    ? {
        ...(values.chart ? { chartDir: values.chart } : {}),
        ...(values.set ? { set: values.set } : {}),
        ...(values.helm ? { helm: values.helm } : {}),
      }
    : undefined;
  return {
    ...(fromChart ? { fromChart } : {}),
    clouds: clouds.length > 0 ? [...new Set(clouds)] : [...DemoClouds],
    keepRunning: Boolean(values['keep-running']),
    quiet: Boolean(values.quiet),
    ...(values['log-level'] ? { logLevel: values['log-level'] } : {}),
  };
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}

export const demoCommand: Command = async (argv, io) => {
  const args = parse(argv);
  if (args === 'help') {
    io.stdout(HELP);
    return 0;
  }
  const clock = new SystemClock();
  const level = args.logLevel ? parseLogLevel(args.logLevel) : 'error';
  const logger = createLogger({ clock, level, sink: (line) => io.stderr(`${line}\n`) });
  let result: Awaited<ReturnType<typeof runDemo>>;
  try {
    result = await runDemo({
      clouds: args.clouds,
      clock,
      logger,
      controllers: defaultControllers,
      write: io.stdout,
      quiet: args.quiet,
      interactive: Boolean(process.stdout.isTTY) && !args.quiet,
      ...(args.keepRunning ? { keepRunning: { until: untilSignal() } } : {}),
      ...(args.fromChart ? { fromChart: args.fromChart } : {}),
    });
  } catch (error) {
    if (!(error instanceof ChartDemoError)) throw error;
    io.stderr(`error: demo --from-chart: ${error.message}\n`);
    return 1;
  }
  const { summary } = result;
  if (!summary.ok) {
    const failed = summary.steps.find((s) => s.status === 'failed');
    io.stderr(`error: demo step ${failed?.id ?? '?'} failed: ${failed?.detail ?? 'unknown'}\n`);
    return 1;
  }
  return 0;
};
