/**
 * The local simulated cluster: the API server, the kubelet simulator and the scheduler simulator started
 * together on one clock. What the tests, the benchmarks and `karpenter-eu demo` run against.
 */
import { type KubeConfig } from '@kubernetes/client-node';
import { type Clock, SystemClock } from '../../util/clock.js';
import { type ApiServer, type ApiServerOptions, startApiServer } from './apiserver/index.js';
import { type CloudInstanceSource } from './kubelet/instance-source.js';
import { KubeletSimulator, type KubeletSimulatorOptions } from './kubelet/kubelet-simulator.js';
import { type ExtenderConfig } from './scheduler/extender-config.js';
import { SchedulerSimulator, type SchedulerSimulatorOptions } from './scheduler/scheduler-simulator.js';

export { type CloudInstance, type CloudInstanceSource } from './kubelet/instance-source.js';
export { KubeletSimulator, AnnotationSimulatedKubelet } from './kubelet/kubelet-simulator.js';
export { StaticInstanceSource, ovhProviderID } from './kubelet/sources/static-source.js';
export { scalewayInstanceSource } from './kubelet/sources/scaleway-source.js';
export { outscaleInstanceSource } from './kubelet/sources/outscale-source.js';
export { ovhcloudInstanceSource } from './kubelet/sources/ovhcloud-source.js';
export { SchedulerSimulator, DefaultSchedulerName } from './scheduler/scheduler-simulator.js';
export { type ExtenderConfig, validateExtenderConfig } from './scheduler/extender-config.js';
export {
  type ExtenderConfigurationEntry,
  extenderFromConfiguration,
  extendersFromConfiguration,
} from './scheduler/scheduler-configuration.js';

export interface SimulatedClusterOptions {
  clock?: Clock;
  /** One extender or several, as KubeSchedulerConfiguration `extenders[]`. */
  extender?: ExtenderConfig | ExtenderConfig[];
  cloudSources?: CloudInstanceSource[];
  apiServer?: Omit<ApiServerOptions, 'clock'>;
  kubelet?: Partial<Omit<KubeletSimulatorOptions, 'kubeConfig' | 'clock' | 'sources'>>;
  scheduler?: Partial<Omit<SchedulerSimulatorOptions, 'kubeConfig' | 'clock' | 'extenders'>>;
}

export interface SimulatedCluster {
  kubeConfig: KubeConfig;
  apiServer: ApiServer;
  kubelet: KubeletSimulator;
  scheduler: SchedulerSimulator;
  clock: Clock;
  close(): Promise<void>;
}

export async function startSimulatedCluster(options: SimulatedClusterOptions = {}): Promise<SimulatedCluster> {
  const clock = options.clock ?? new SystemClock();
  // Pods on nodes wait for the kubelet to finish their deletion, as in a real cluster.
  const apiServer = await startApiServer({ gracefulPodDeletion: true, ...options.apiServer, clock });
  const extenders = options.extender === undefined ? [] : Array.isArray(options.extender) ? options.extender : [options.extender];
  const kubelet = new KubeletSimulator({
    ...options.kubelet,
    kubeConfig: apiServer.kubeConfig,
    clock,
    sources: options.cloudSources ?? [],
  });
  const scheduler = new SchedulerSimulator({ ...options.scheduler, kubeConfig: apiServer.kubeConfig, clock, extenders });
  try {
    await Promise.all([kubelet.start(), scheduler.start()]);
  } catch (error) {
    await Promise.allSettled([kubelet.stop(), scheduler.stop()]);
    await apiServer.close();
    throw error;
  }
  return {
    kubeConfig: apiServer.kubeConfig,
    apiServer,
    kubelet,
    scheduler,
    clock,
    async close() {
      await Promise.allSettled([kubelet.stop(), scheduler.stop()]);
      await apiServer.close();
    },
  };
}
