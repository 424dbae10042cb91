/** The from-chart steps of the demo's start: install the release, read it back, then wire the cluster to the service. */
import { rmSync } from 'node:fs';
import type { KubeConfig, KubernetesObject } from '@kubernetes/client-node';
import type { SimulatedCluster } from '../../cluster/index.js';
import type { DemoTimings, Emulators } from '../environment.js';
import { applyObjects, projectFile } from '../install.js';
import { operatorCredentialSecrets } from './credentials.js';
import { ChartDemoError } from './errors.js';
import { defaultHelm } from './helm.js';
import { type ChartRelease, helmInstall, type InstalledRelease, readRelease, schedulerExtenders, secondSchedulerFile } from './release.js';
import { demoSetLine } from './set-line.js';
import { registerSystemNode, reportPodRunning } from './system-node.js';
import { checkWebhooks, serviceKey, waitForCaBundles } from './webhooks.js';

export interface FromChartOptions {
  /** Default: manifests/chart. */
  chartDir?: string;
  /** More `--set` assignments after the demo's own (a later one wins, as in Helm). */
  set?: readonly string[];
  helm?: string;
  /** What an administrator creates before `helm install` besides the credentials (a provided certificate's Secret). */
  objects?: readonly KubernetesObject[];
}

export { ChartDemoError };

export async function installChart(
  cluster: SimulatedCluster,
  emulators: Emulators,
  context: { timings: DemoTimings; ovhCluster: { serviceName: string; kubeId: string; region: string } },
  options: FromChartOptions,
): Promise<InstalledRelease> {
  const kubeconfigPath = cluster.apiServer.kubeconfigPath;
  if (!kubeconfigPath) throw new ChartDemoError('the demo cluster wrote no kubeconfig for helm');
  const release: ChartRelease = {
    helm: options.helm ?? defaultHelm(),
    chartDir: options.chartDir ?? projectFile('manifests/chart'),
    release: 'karpenter-eu',
    namespace: 'karpenter',
    set: [...demoSetLine(emulators, context.timings, context.ovhCluster), ...(options.set ?? [])],
  };
  await applyObjects(cluster.kubeConfig, [...operatorCredentialSecrets(emulators, release.namespace), ...(options.objects ?? [])]);
  await registerSystemNode(cluster.kubeConfig, new Date());
  const notes = await helmInstall(release, kubeconfigPath);
  return readRelease(cluster.kubeConfig, release, notes);
}

/**
 * Once the service runs: the API server calls the release's webhook configurations through its Service (after the
 * service has set their caBundles), and the simulated scheduler calls the extender as the shipped second scheduler.
 */
export async function connectChartService(
  cluster: SimulatedCluster,
  installed: InstalledRelease,
  services: Map<string, string>,
): Promise<void> {
  const kubeConfig: KubeConfig = cluster.kubeConfig;
  await reportPodRunning(kubeConfig, installed.pod, 15_000);
  await waitForCaBundles(kubeConfig, 15_000);
  for (const [key, url] of await checkWebhooks(kubeConfig, installed.network)) services.set(key, url);
  cluster.scheduler.useExtenders(await schedulerExtenders(kubeConfig, installed.network, secondSchedulerFile()));
}

export function resolveChartService(
  services: Map<string, string>,
  ref: { namespace: string; name: string; port?: number; path?: string },
): string | undefined {
  const base = services.get(serviceKey(ref));
  return base === undefined ? undefined : `${base}${ref.path ?? '/'}`;
}

export function removePodFiles(installed: InstalledRelease): void {
  rmSync(installed.run.root, { recursive: true, force: true });
}
