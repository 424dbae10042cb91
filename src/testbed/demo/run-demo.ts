/**
 * `karpenter-eu demo` as a function: start the loopback world, run the real operator against it, play the
 * scenario, print the timeline and the summary. The CLI and the end-to-end test both call this.
 */
import type { CloudName } from '../../apis/v1/labels.js';
import { loadCatalog } from '../../catalog/index.js';
import type { KubeConfig } from '@kubernetes/client-node';
import { createKube } from '../../kube/client.js';
import type { ControllerPlugin } from '../../operator/controllers.js';
import { CatalogPriceBook } from '../../views/price-book.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/logger.js';
import { type DemoCloud, DemoClouds, type DemoEnvironment, startDemoEnvironment } from './environment.js';
import { NodeLedger } from './ledger.js';
import { createDemoContext, type DemoStep, type DemoSummary, runScenario } from './scenario.js';
import { demoSteps } from './steps/index.js';
import { describeRelease } from './chart/release.js';
import type { FromChartOptions } from './chart/start.js';
import { formatSummary } from './summary.js';
import { Timeline } from './timeline.js';

export interface DemoOptions {
  clouds?: readonly DemoCloud[];
  clock: Clock;
  /** The operator's own log (JSON lines); the demo keeps it quiet by default. */
  logger: Logger;
  controllers: readonly ControllerPlugin[];
  write: (text: string) => void;
  quiet?: boolean;
  interactive?: boolean;
  steps?: readonly DemoStep[];
  waitTimeoutMs?: number;
  /** Keep everything running after the scenario; resolves `keepRunning.until` to stop. */
  keepRunning?: { until: Promise<void> };
  /** `helm install` the chart into the demo cluster and run the service from the Deployment it renders. */
  fromChart?: FromChartOptions;
}

export interface DemoResult {
  summary: DemoSummary;
  kubeconfigPath?: string;
}

function priceBook(): CatalogPriceBook {
  const clouds: CloudName[] = ['ovhcloud', 'scaleway', 'outscale'];
  return new CatalogPriceBook(Object.fromEntries(clouds.map((c) => [c, loadCatalog(c)])));
}

async function keepRunning(env: DemoEnvironment, timeline: Timeline, until: Promise<void>): Promise<void> {
  timeline.raw(
    `the cluster keeps running; point kubectl at it:\n  export KUBECONFIG=${env.kubeconfigPath ?? '(no kubeconfig written)'}\n  kubectl get nodepools,nodeclaims,nodes,pods -A\npress Ctrl-C to stop`,
  );
  await until;
}

export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const clouds = options.clouds ?? DemoClouds;
  const timeline = new Timeline({
    write: options.write,
    clock: options.clock,
    quiet: options.quiet ?? false,
    interactive: options.interactive ?? false,
  });
  timeline.raw(`karpenter-eu demo: simulated cluster + ${clouds.join(' + ')} emulators on loopback, the real service against them`);
  const env = await startDemoEnvironment({
    clouds,
    clock: options.clock,
    logger: options.logger,
    controllers: options.controllers,
    kubeconfig: Boolean(options.keepRunning),
    ...(options.fromChart ? { fromChart: options.fromChart } : {}),
  });
  const kubeConfig: KubeConfig = env.cluster.kubeConfig;
  const ledger = new NodeLedger(kubeConfig, createKube(kubeConfig), options.clock, priceBook());
  try {
    if (env.chart) {
      timeline.say(
        `helm install ${env.chart.release.release} ${env.chart.release.chartDir} --namespace ${env.chart.release.namespace} ${env.chart.release.set.map((s) => `--set ${s}`).join(' ')}`,
      );
      for (const line of describeRelease(env.chart)) timeline.say(line);
    }
    timeline.say(
      `service up: webhooks ${env.operator.webhookUrl}, extender ${env.operator.extenderUrl}, metrics ${env.operator.metricsUrl}`,
    );
    timeline.say(
      `cloud endpoints: ${Object.entries(env.operatorEnv)
        .filter(([k]) => k.endsWith('_API_URL') || k.endsWith('_ENDPOINT_API'))
        .map(([k, v]) => `${k}=${v ?? ''}`)
        .join(', ')}`,
    );
    await ledger.start();
    const ctx = createDemoContext({
      env,
      clouds,
      primaryCloud: clouds[0] as DemoCloud,
      clock: options.clock,
      timeline,
      ledger,
      controllers: new Set(options.controllers.map((c) => c.name)),
      waitTimeoutMs: options.waitTimeoutMs ?? 45_000,
    });
    const summary = await runScenario(ctx, options.steps ?? demoSteps);
    timeline.raw(formatSummary(summary));
    if (options.keepRunning) await keepRunning(env, timeline, options.keepRunning.until);
    return { summary, ...(env.kubeconfigPath ? { kubeconfigPath: env.kubeconfigPath } : {}) };
  } finally {
    await ledger.stop();
    await env.close();
  }
}
