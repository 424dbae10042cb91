/**
 * The demo's world on loopback: the simulated cluster, the cloud emulators, the credentials an
 * administrator would hand the service, and the SAME operator `karpenter-eu run` starts — configured by
 * flags and environment variables pointing at the emulators instead of the real APIs.
 */
import type { V1Namespace, V1Secret } from '@kubernetes/client-node';
import type { CloudName } from '../../apis/v1/labels.js';
import { NodeClassSecretLabel } from '../../domain/secrets/secret-access.js';
import { startOperator, type RunningOperator } from '../../operator/operator.js';
import type { ControllerPlugin } from '../../operator/controllers.js';
import { parseOperatorOptions, type Env } from '../../operator/options.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/logger.js';
import { createLoopbackCertificate } from '../../util/tls.js';
import type { KubeletSimulatorOptions } from '../cluster/kubelet/kubelet-simulator.js';
import {
  type CloudInstanceSource,
  outscaleInstanceSource,
  ovhcloudInstanceSource,
  scalewayInstanceSource,
  type SimulatedCluster,
  startSimulatedCluster,
} from '../cluster/index.js';
import { globalAgent } from 'node:https';
import { type OutscaleEmulator, startOutscaleEmulator } from '../emulators/outscale/index.js';
import { type OvhcloudEmulator, startOvhcloudEmulator } from '../emulators/ovhcloud/index.js';
import { type ScalewayEmulator, startScalewayEmulator } from '../emulators/scaleway/index.js';
import { freeLoopbackPort } from './free-port.js';
import { applyObjects, installCrds, installWebhookConfigurations, projectFile } from './install.js';
import type { InstalledRelease } from './chart/release.js';
import { connectChartService, type FromChartOptions, installChart, removePodFiles, resolveChartService } from './chart/start.js';

/** The project of `manifests/examples/scaleway/nodeclass.yaml`, so the example applies unchanged. */
export const ExampleScalewayProject = '5b8a2c1e-7f3d-4e9a-b6c0-1d2e3f4a5b6c';
const ScalewayDemoCredential = {
  accessKey: 'SCWDEMO0KARPENTER0EU',
  secretKey: '0c7f3b9e-5d2a-4e61-9f3c-8a1b2c3d4e5f',
  projectId: ExampleScalewayProject,
  organizationId: '7d1e2f3a-4b5c-4d6e-8f90-a1b2c3d4e5f6',
};

/** Clouds the demo can run: those with a provider in this build. */
export const DemoClouds = ['ovhcloud', 'scaleway', 'outscale'] as const satisfies readonly CloudName[];
/** The OVH project and MKS cluster of `manifests/examples/ovhcloud/nodeclass.yaml`. */
const ExampleOvhCluster = {
  serviceName: '0123456789abcdef0123456789abcdef',
  kubeId: '6f1c9a52-3b7e-4d0a-9c51-2e8f4b7a1d03',
  region: 'EU-WEST-PAR',
};
export type DemoCloud = (typeof DemoClouds)[number];

export interface DemoEnvironmentOptions {
  clouds: readonly DemoCloud[];
  clock: Clock;
  logger: Logger;
  controllers: readonly ControllerPlugin[];
  /** Short windows so the scenario runs in well under the 3 minutes (milliseconds). */
  timings?: Partial<DemoTimings>;
  /** Write a kubeconfig file (for `kubectl` while the demo keeps running). */
  kubeconfig?: boolean;
  webhookConfigurationsFile?: string;
  /** The operator's `--feature-gates` (upstream spelling, `NodeOverlay=true`); the defaults when unset. */
  featureGates?: string;
  /** Device plugins on the simulated nodes (the kubelet simulator's `devicePlugins`). */
  devicePlugins?: KubeletSimulatorOptions['devicePlugins'];
  /** Install manifests/chart with Helm and run the service from the Deployment it renders (demo --from-chart). */
  fromChart?: FromChartOptions;
}

export interface DemoTimings {
  bootMs: number;
  readyMs: number;
  batchIdle: string;
  batchMax: string;
  disruptionInterval: string;
  validationDelay: string;
  driftCheckInterval: string;
  gcInterval: string;
}

export const defaultTimings: DemoTimings = {
  bootMs: 600,
  readyMs: 300,
  batchIdle: '300ms',
  batchMax: '2s',
  disruptionInterval: '1s',
  validationDelay: '1s',
  driftCheckInterval: '1s',
  gcInterval: '5s',
};

export interface DemoEnvironment {
  cluster: SimulatedCluster;
  ovhcloud?: OvhcloudEmulator;
  scaleway?: ScalewayEmulator;
  outscale?: OutscaleEmulator;
  /** The operator running now (the restarted one after `restartOperator`). */
  readonly operator: RunningOperator;
  /**
   * Stops the operator and starts another from the same configuration and webhook certificate, as a
   * restarted pod would be; the API server calls the new one's webhooks from then on.
   */
  restartOperator(logger?: Logger): Promise<RunningOperator>;
  /** The environment `run` was configured from (credentials + endpoint overrides). */
  operatorEnv: Env;
  kubeconfigPath?: string;
  /** With `fromChart`: the release read back (its NOTES, the container as prepared, the ports mapped). */
  chart?: InstalledRelease;
  close(): Promise<void>;
}

export interface Emulators {
  ovhcloud?: OvhcloudEmulator;
  scaleway?: ScalewayEmulator;
  outscale?: OutscaleEmulator;
}

async function startOvh(options: DemoEnvironmentOptions, timings: DemoTimings): Promise<OvhcloudEmulator | undefined> {
  if (!options.clouds.includes('ovhcloud')) return undefined;
  const emulator = await startOvhcloudEmulator({
    clock: options.clock,
    clusters: [ExampleOvhCluster],
    timings: {
      poolInstallMs: timings.bootMs,
      nodeAppearMs: 100,
      instanceIdMs: timings.bootMs / 2,
      nodeReadyMs: timings.bootMs,
      nodeDeleteMs: timings.bootMs,
      poolDeleteMs: timings.bootMs,
    },
  });
  // The ovh SDK has no CA option: the emulator's private CA is trusted process-wide, as its client documents.
  const current = globalAgent.options.ca;
  globalAgent.options.ca = [...(Array.isArray(current) ? current : current ? [current] : []), emulator.caPem] as string[];
  return emulator;
}

export async function startEmulators(options: DemoEnvironmentOptions, timings: DemoTimings): Promise<Emulators> {
  const ovhcloud = await startOvh(options, timings);
  const scaleway = options.clouds.includes('scaleway')
    ? await startScalewayEmulator({
        clock: options.clock,
        credentials: [ScalewayDemoCredential],
        timings: { startingMs: timings.bootMs, stoppingMs: timings.bootMs },
      })
    : undefined;
  const outscale = options.clouds.includes('outscale')
    ? await startOutscaleEmulator({
        clock: options.clock,
        region: 'eu-west-2',
        timings: { bootMs: timings.bootMs, shutdownMs: timings.bootMs, stopMs: timings.bootMs },
      })
    : undefined;
  return { ...(ovhcloud ? { ovhcloud } : {}), ...(scaleway ? { scaleway } : {}), ...(outscale ? { outscale } : {}) };
}

/** What an operator deployment would get from its Secret: the clouds' usual variables, endpoints on loopback. */
export function operatorEnvFor(emulators: Emulators): Env {
  const env: Record<string, string> = {};
  if (emulators.ovhcloud) {
    const c = emulators.ovhcloud.credentials;
    Object.assign(env, {
      OVH_ENDPOINT: emulators.ovhcloud.url,
      OVH_APPLICATION_KEY: c.applicationKey,
      OVH_APPLICATION_SECRET: c.applicationSecret,
      OVH_CONSUMER_KEY: c.consumerKey,
    });
  }
  if (emulators.scaleway) {
    const c = emulators.scaleway.credentials;
    Object.assign(env, {
      SCW_ACCESS_KEY: c.accessKey,
      SCW_SECRET_KEY: c.secretKey,
      SCW_DEFAULT_PROJECT_ID: c.projectId,
      SCW_DEFAULT_REGION: 'fr-par',
      SCW_API_URL: emulators.scaleway.url,
    });
  }
  if (emulators.outscale) {
    const c = emulators.outscale.credentials;
    Object.assign(env, {
      OSC_ACCESS_KEY: c.accessKey,
      OSC_SECRET_KEY: c.secretKey,
      OSC_REGION: emulators.outscale.region,
      OSC_ENDPOINT_API: emulators.outscale.url,
    });
  }
  return env;
}

/** A Secret of the operator's namespace, labelled as meant for NodeClasses (the operator reads no other for them). */
function secret(name: string, data: Record<string, string>): V1Secret {
  const labels = { [NodeClassSecretLabel.key]: NodeClassSecretLabel.value };
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'karpenter', labels }, stringData: data };
}

/** The Secrets the example NodeClasses name (their own credentials and the kubeadm join token). */
export async function seedSecrets(cluster: SimulatedCluster, emulators: Emulators): Promise<void> {
  const namespace: V1Namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'karpenter' } };
  const secrets: V1Secret[] = [secret('bootstrap-token', { token: 'abcdef.0123456789abcdef' })];
  if (emulators.ovhcloud) {
    const c = emulators.ovhcloud.credentials;
    secrets.push(
      secret('ovh-nodeclass-credentials', {
        applicationKey: c.applicationKey,
        applicationSecret: c.applicationSecret,
        consumerKey: c.consumerKey,
        endpoint: emulators.ovhcloud.url,
      }),
    );
  }
  if (emulators.scaleway)
    secrets.push(
      secret('scaleway-nodeclass-credentials', {
        SCW_ACCESS_KEY: emulators.scaleway.credentials.accessKey,
        SCW_SECRET_KEY: emulators.scaleway.credentials.secretKey,
      }),
    );
  if (emulators.outscale)
    secrets.push(
      secret('outscale-nodeclass-credentials', {
        OSC_ACCESS_KEY: emulators.outscale.credentials.accessKey,
        OSC_SECRET_KEY: emulators.outscale.credentials.secretKey,
      }),
    );
  await applyObjects(cluster.kubeConfig, [namespace, ...secrets]);
}

/** The `--cluster-name` the demo's operator runs with: the tag on everything it creates in the clouds. */
export const DemoClusterName = 'karpenter-eu-demo';

function operatorArgs(extenderPort: number, timings: DemoTimings, featureGates: string | undefined): string[] {
  return [
    ...(featureGates === undefined ? [] : [`--feature-gates=${featureGates}`]),
    `--cluster-name=${DemoClusterName}`,
    '--bind-address=127.0.0.1',
    '--webhook-port=0',
    `--extender-port=${extenderPort}`,
    '--metrics-port=0',
    `--batch-idle-duration=${timings.batchIdle}`,
    `--batch-max-duration=${timings.batchMax}`,
    `--disruption-interval=${timings.disruptionInterval}`,
    `--disruption-validation-delay=${timings.validationDelay}`,
    `--drift-check-interval=${timings.driftCheckInterval}`,
    `--gc-interval=${timings.gcInterval}`,
    '--leader-election-namespace=karpenter',
    '--leader-election-identity=karpenter-eu-demo',
    // The lease keeps the product's timings (15 s / 10 s / 2 s), as a user's install runs: this one process also
    // runs the simulated API server, kubelets and clouds, and on a busy machine a renewal round trip here takes
    // longer than a 2 s renew deadline allows, so the fence would refuse the leader's own writes for seconds.
    '--log-level=warn',
    // The chart's default names of the controller's own credentials Secrets.
    '--operator-credentials-secrets=ovh-credentials,scaleway-credentials,outscale-credentials',
  ];
}

export function cloudSources(emulators: Emulators): CloudInstanceSource[] {
  return [
    ...(emulators.ovhcloud ? [ovhcloudInstanceSource(emulators.ovhcloud)] : []),
    ...(emulators.scaleway ? [scalewayInstanceSource(emulators.scaleway)] : []),
    ...(emulators.outscale ? [outscaleInstanceSource(emulators.outscale)] : []),
  ];
}

export async function startDemoEnvironment(options: DemoEnvironmentOptions): Promise<DemoEnvironment> {
  const timings = { ...defaultTimings, ...options.timings };
  const closers: (() => Promise<void>)[] = [];
  const closeAll = async (): Promise<void> => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
  };
  try {
    const emulators = await startEmulators(options, timings);
    if (emulators.ovhcloud) closers.push(() => (emulators.ovhcloud as OvhcloudEmulator).close());
    if (emulators.scaleway) closers.push(() => (emulators.scaleway as ScalewayEmulator).close());
    if (emulators.outscale) closers.push(() => (emulators.outscale as OutscaleEmulator).close());
    const certificate = await createLoopbackCertificate();
    const extenderPort = await freeLoopbackPort();
    const webhook: { url?: string } = {};
    const chartServices = new Map<string, string>();
    const fromChart = options.fromChart;
    const cluster = await startSimulatedCluster({
      clock: options.clock,
      cloudSources: cloudSources(emulators),
      // From the chart, the extender is the second scheduler's, set once the service has made its CA.
      ...(fromChart
        ? {}
        : {
            extender: {
              urlPrefix: `http://127.0.0.1:${extenderPort}/scheduler`,
              filterVerb: 'filter',
              prioritizeVerb: 'prioritize',
              weight: 1,
              nodeCacheCapable: true,
              ignorable: true,
            },
          }),
      // The API server reaches the webhook Service through the operator's loopback port, once it listens.
      apiServer: {
        resolveService: fromChart
          ? (svc) => resolveChartService(chartServices, svc)
          : (svc) => (webhook.url && svc.name === 'karpenter-eu' ? `${webhook.url}${svc.path ?? '/'}` : undefined),
        verifyServiceNames: Boolean(fromChart),
        kubeconfig: Boolean(options.kubeconfig) || Boolean(fromChart),
      },
      kubelet: {
        readyDelayMs: timings.readyMs,
        podStartDelayMs: 50,
        nodeRemovalDelayMs: timings.readyMs,
        pollIntervalMs: 100,
        ...(options.devicePlugins ? { devicePlugins: options.devicePlugins } : {}),
      },
    });
    closers.push(() => cluster.close());
    // From the chart, Helm installs the CRDs of its crds/ directory.
    if (!fromChart) await installCrds(cluster.kubeConfig);
    await seedSecrets(cluster, emulators);
    const chart = fromChart ? await installChart(cluster, emulators, { timings, ovhCluster: ExampleOvhCluster }, fromChart) : undefined;
    if (chart) closers.push(async () => removePodFiles(chart));
    const operatorEnv = chart?.run.env ?? operatorEnvFor(emulators);
    const config = chart?.config ?? parseOperatorOptions(operatorArgs(extenderPort, timings, options.featureGates), operatorEnv);
    const start = (logger: Logger) =>
      startOperator({
        config,
        kubeConfig: cluster.kubeConfig,
        clock: options.clock,
        logger,
        controllers: options.controllers,
        // From the chart, the service serves the certificates its configuration makes it make (or read).
        ...(chart ? {} : { webhookTls: certificate }),
      });
    let operator = await start(options.logger);
    closers.push(() => operator.stop());
    webhook.url = operator.webhookUrl;
    const restartOperator = async (logger = options.logger): Promise<RunningOperator> => {
      await operator.stop();
      operator = await start(logger);
      webhook.url = operator.webhookUrl;
      return operator;
    };
    if (chart) await connectChartService(cluster, chart, chartServices);
    else
      await installWebhookConfigurations(
        cluster.kubeConfig,
        options.webhookConfigurationsFile ?? projectFile('manifests/webhooks/webhook-configurations.yaml'),
        certificate.caPem,
      );
    return {
      ...(chart ? { chart } : {}),
      cluster,
      ...emulators,
      get operator() {
        return operator;
      },
      restartOperator,
      operatorEnv,
      ...(cluster.apiServer.kubeconfigPath ? { kubeconfigPath: cluster.apiServer.kubeconfigPath } : {}),
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
