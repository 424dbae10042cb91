/**
 * `demo --from-chart`: the chart installed by Helm into the demo cluster, and the service configured from what the
 * release stored — the Deployment's args, environment (Secrets, ConfigMaps and fields resolved), mounted files and
 * ports, the webhook configurations, and the shipped second scheduler's extender configuration. Only endpoints and
 * credentials differ from a real cluster: the cloud endpoints go in by the chart's own values, and ports and mount
 * paths are mapped onto loopback and a temporary directory.
 */
import { AppsV1Api, CoreV1Api, type KubeConfig, type V1ConfigMap, type V1Deployment } from '@kubernetes/client-node';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import { type OperatorConfig, parseOperatorOptions, UnknownOptionError } from '../../../operator/options.js';
import type { ExtenderConfig } from '../../cluster/index.js';
import { type ExtenderConfigurationEntry, extendersFromConfiguration } from '../../cluster/index.js';
import { freeLoopbackPort } from '../free-port.js';
import { projectFile, readManifest } from '../install.js';
import { type ContainerRun, type PodIdentity, prepareContainer } from './container.js';
import { ChartDemoError } from './errors.js';
import { runHelm } from './helm.js';
import { type Listener, PodNetwork } from './network.js';
import { storedData } from './stored-data.js';

export interface ChartRelease {
  helm: string;
  chartDir: string;
  release: string;
  namespace: string;
  /** `--set` assignments, as typed after `--set`. */
  set: readonly string[];
}

export interface InstalledRelease {
  release: ChartRelease;
  deployment: V1Deployment;
  pod: PodIdentity;
  run: ContainerRun;
  /** The service's configuration parsed from the container's args and environment, ports mapped to loopback. */
  config: OperatorConfig;
  network: PodNetwork;
  listeners: Listener[];
  notes: string;
}

export async function helmInstall(release: ChartRelease, kubeconfigPath: string): Promise<string> {
  const args = [
    'install',
    release.release,
    release.chartDir,
    '--namespace',
    release.namespace,
    ...release.set.flatMap((s) => ['--set', s]),
  ];
  const { stdout } = await runHelm({ helm: release.helm, kubeconfigPath, args });
  return stdout.slice(Math.max(0, stdout.indexOf('NOTES:')));
}

async function releaseDeployment(kubeConfig: KubeConfig, release: ChartRelease): Promise<V1Deployment> {
  const list = await kubeConfig
    .makeApiClient(AppsV1Api)
    .listNamespacedDeployment({ namespace: release.namespace, labelSelector: `app.kubernetes.io/instance=${release.release}` });
  if (list.items.length !== 1)
    throw new ChartDemoError(
      `release ${release.release} created ${list.items.length} Deployments in ${release.namespace}; the demo runs exactly one`,
    );
  return list.items[0] as V1Deployment;
}

/** The pod the Deployment controller made for it: its name and uid are what POD_NAME and fieldRefs read. */
async function podOf(kubeConfig: KubeConfig, deployment: V1Deployment, timeoutMs = 15_000): Promise<PodIdentity> {
  const namespace = deployment.metadata?.namespace ?? 'default';
  const selector = Object.entries(deployment.spec?.selector.matchLabels ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  const api = kubeConfig.makeApiClient(CoreV1Api);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pod = (await api.listNamespacedPod({ namespace, labelSelector: selector })).items[0];
    if (pod?.metadata?.name)
      return {
        name: pod.metadata.name,
        namespace,
        uid: pod.metadata.uid ?? '',
        serviceAccountName: pod.spec?.serviceAccountName ?? 'default',
        labels: pod.metadata.labels ?? {},
        annotations: pod.metadata.annotations ?? {},
      };
    if (Date.now() > deadline)
      throw new ChartDemoError(`Deployment ${namespace}/${deployment.metadata?.name} made no pod in ${timeoutMs / 1000}s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The image runs `karpenter-eu <args>`; its `run` command parses exactly this. */
function serviceConfig(run: ContainerRun): OperatorConfig {
  if (run.container.command?.length)
    throw new ChartDemoError(
      `container ${run.container.name}: command ${JSON.stringify(run.container.command)} replaces the image's entrypoint karpenter-eu`,
    );
  const [command, ...flags] = run.args;
  if (command !== 'run')
    throw new ChartDemoError(
      `container ${run.container.name}: args ${JSON.stringify(run.args)} do not start the service (karpenter-eu run)`,
    );
  try {
    return parseOperatorOptions(flags, run.env);
  } catch (error) {
    if (error instanceof UnknownOptionError)
      throw new ChartDemoError(`container ${run.container.name}: karpenter-eu run refuses its args: unknown flag ${error.flag}`);
    throw new ChartDemoError(`container ${run.container.name}: karpenter-eu run refuses its configuration: ${(error as Error).message}`);
  }
}

async function listenOnLoopback(config: OperatorConfig): Promise<{ config: OperatorConfig; listeners: Listener[] }> {
  const listeners: Listener[] = [
    { what: 'webhooks, WEBHOOK_PORT', containerPort: config.webhook.port, loopbackPort: await freeLoopbackPort() },
    { what: 'extender, EXTENDER_PORT', containerPort: config.extender.port, loopbackPort: await freeLoopbackPort() },
    { what: 'metrics, METRICS_PORT', containerPort: config.metrics.port, loopbackPort: await freeLoopbackPort() },
  ];
  const [webhook, extender, metrics] = listeners.map((l) => l.loopbackPort) as [number, number, number];
  return {
    listeners,
    config: {
      ...config,
      bindAddress: '127.0.0.1',
      webhook: { ...config.webhook, port: webhook },
      extender: { ...config.extender, port: extender },
      metrics: { port: metrics },
    },
  };
}

/** After `helm install`: the Deployment read back and its container prepared as the kubelet would. */
export async function readRelease(kubeConfig: KubeConfig, release: ChartRelease, notes: string): Promise<InstalledRelease> {
  const deployment = await releaseDeployment(kubeConfig, release);
  const pod = await podOf(kubeConfig, deployment);
  const run = await prepareContainer(deployment, pod, storedData(kubeConfig));
  const { config, listeners } = await listenOnLoopback(serviceConfig(run));
  return { release, deployment, pod, run, config, listeners, network: new PodNetwork(run.container, pod.labels, listeners), notes };
}

/** The lines the demo prints: what was mapped, so nothing differs unsaid. */
export function describeRelease(installed: InstalledRelease): string[] {
  return [
    `pod ${installed.pod.namespace}/${installed.pod.name}: karpenter-eu ${installed.run.args.join(' ')} with the ${Object.keys(installed.run.env).length} variables of its container`,
    `ports on loopback: ${installed.listeners.map((l) => `${l.containerPort} (${l.what}) → 127.0.0.1:${l.loopbackPort}`).join(', ')}`,
    ...(installed.run.mounts.length > 0
      ? [
          `mounts under ${installed.run.root} (only paths under a mount are rewritten): ${installed.run.mounts.map((m) => m.mountPath).join(', ')}`,
        ]
      : []),
  ];
}

interface ServiceRef {
  namespace: string;
  name: string;
  port?: number;
  path?: string;
}

/** Cluster DNS and kube-proxy for the release's Services: `<name>.<namespace>.svc:<port>` → the loopback port. */
export async function serviceUrl(kubeConfig: KubeConfig, network: PodNetwork, ref: ServiceRef, defaultPort: number): Promise<string> {
  const api = kubeConfig.makeApiClient(CoreV1Api);
  const service = await api.readNamespacedService({ namespace: ref.namespace, name: ref.name }).catch((error: unknown) => {
    if ((error as { code?: number }).code === 404)
      throw new ChartDemoError(`service "${ref.name}" not found in namespace ${ref.namespace}`);
    throw error;
  });
  return `https://127.0.0.1:${network.loopbackPort(service, ref.port ?? defaultPort)}${ref.path ?? ''}`;
}

/**
 * The shipped second scheduler's `extenders[]` (manifests/scheduler/second-scheduler.yaml), its files read as its pod
 * mounts them (the CA from the Secret the service keeps), its Service host resolved through the pod network.
 */
export async function schedulerExtenders(kubeConfig: KubeConfig, network: PodNetwork, file: string): Promise<ExtenderConfig[]> {
  const objects = readManifest(file);
  const configMaps = objects.filter((o) => o.kind === 'ConfigMap') as V1ConfigMap[];
  const deployment = objects.find((o) => o.kind === 'Deployment') as V1Deployment | undefined;
  if (!deployment) throw new ChartDemoError(`${file} has no scheduler Deployment`);
  const pod: PodIdentity = {
    name: `${deployment.metadata?.name}-0`,
    namespace: deployment.metadata?.namespace ?? 'default',
    uid: '00000000-0000-4000-8000-000000000001',
    serviceAccountName: deployment.spec?.template.spec?.serviceAccountName ?? 'default',
    labels: deployment.spec?.template.metadata?.labels ?? {},
    annotations: {},
  };
  const scheduler = await prepareContainer(deployment, pod, storedData(kubeConfig, configMaps));
  const configPath = /--config=(\S+)/.exec((scheduler.container.command ?? []).join(' '))?.[1];
  if (!configPath) throw new ChartDemoError(`${file}: the scheduler has no --config`);
  const configuration = YAML.parse(readFileSync(join(scheduler.root, configPath), 'utf8')) as { extenders?: ExtenderConfigurationEntry[] };
  const resolved = new Map<string, string>();
  for (const entry of configuration.extenders ?? []) {
    const url = new URL(entry.urlPrefix);
    const [name, namespace, svc] = url.hostname.split('.');
    if (svc !== 'svc' || !name || !namespace)
      throw new ChartDemoError(`extender ${entry.urlPrefix}: the demo resolves <service>.<namespace>.svc hosts only`);
    resolved.set(url.host, await serviceUrl(kubeConfig, network, { name, namespace, port: Number(url.port || 443) }, 443));
  }
  return extendersFromConfiguration(configuration, {
    readFile: (path) => readFileSync(join(scheduler.root, path), 'utf8'),
    resolve: (url) => new URL(`${resolved.get(url.host) ?? url.origin}${url.pathname}`),
  });
}

export const secondSchedulerFile = (): string => projectFile('manifests/scheduler/second-scheduler.yaml');
