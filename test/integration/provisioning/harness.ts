/**
 * A provisioning test bed on the real clock with short windows: the simulated API server, scheduler and
 * kubelet simulators, ClusterState informers, the fake cloud provider (its instances become Nodes through a
 * CloudInstanceSource, registering with the `karpenter.sh/unregistered` taint as a real launch would), and
 * the real provisioning and lifecycle controllers.
 */
import { ApiextensionsV1Api, type V1CustomResourceDefinition, type V1Pod } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { buildCrd, CrdDefinitions, type NodeClaim, type NodePool, TaintUnregistered } from '../../../src/apis/index.js';
import { FakeCloudProvider, FakeRegion, fakeInstanceType } from '../../../src/cloudprovider/fake/index.js';
import type { CloudNodeClaim } from '../../../src/cloudprovider/types.js';
import { createTerminationController } from '../../../src/controllers/termination/termination-controller.js';
import {
  createLifecycleController,
  type LifecycleController,
  type LifecycleOptions,
} from '../../../src/controllers/nodeclaim/lifecycle/index.js';
import {
  createPendingPodInformer,
  createProvisioningController,
  type PendingPodSource,
  type ProvisioningController,
  type ProvisioningOptions,
} from '../../../src/controllers/provisioning/index.js';
import { formatResourceList } from '../../../src/domain/quantity/index.js';
import { createKube, EventRecorder, type Kube, Resources } from '../../../src/kube/index.js';
import { createMetrics, type Metrics } from '../../../src/metrics/registry.js';
import { ClusterState, createClusterStateInformers, type ClusterStateInformers } from '../../../src/state/index.js';
import {
  type CloudInstance,
  type CloudInstanceSource,
  startSimulatedCluster,
  type SimulatedCluster,
} from '../../../src/testbed/cluster/index.js';
import { SystemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';
import { clusterStateExtenderView } from '../../../src/views/extender-view.js';
import { CatalogPriceBook } from '../../../src/views/price-book.js';
import { createExtenderServer, type RunningExtenderServer } from '../../../webhooks/extender/index.js';
import * as builders from '../../builders.js';

/** Cheapest first: 2, 4, 8 vCPU at 4 GiB per vCPU. */
export const testInstanceTypes = [
  fakeInstanceType({ name: 'm-2', cpu: 2, memoryMiB: 8192, pricePerHour: 0.04 }),
  fakeInstanceType({ name: 'm-4', cpu: 4, memoryMiB: 16384, pricePerHour: 0.08 }),
  fakeInstanceType({ name: 'm-8', cpu: 8, memoryMiB: 32768, pricePerHour: 0.16 }),
];

/** The fake cloud's running instances as machines the kubelet simulator boots. */
export function fakeInstanceSource(
  provider: FakeCloudProvider,
  boots: (instance: CloudNodeClaim) => boolean = () => true,
): CloudInstanceSource {
  return {
    cloud: 'ovhcloud',
    running: (): CloudInstance[] =>
      [...provider.instances.values()]
        .filter((i) => boots(i))
        .map((i) => ({
          cloud: 'ovhcloud',
          nodeName: `node-${i.providerID.split('/').pop() ?? ''}`,
          providerID: i.providerID,
          instanceType: i.instanceType,
          region: FakeRegion,
          zone: i.zone,
          arch: 'amd64',
          capacity: formatResourceList(i.capacity),
          // The kubelet reports what the catalog says is allocatable, as the real clouds' kubelets do.
          allocatable: formatResourceList(i.allocatable),
          labels: {},
          taints: [{ key: TaintUnregistered.key, effect: TaintUnregistered.effect }],
          bootedAt: i.createdAt,
        })),
  };
}

export function nodePool(name: string, limits?: Record<string, string>): NodePool {
  return builders.nodePool({ name, ...(limits ? { limits } : {}), expireAfter: 'Never' });
}

export function deployment(name: string, replicas: number, cpu: string): object {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image: 'app', resources: { requests: { cpu, memory: '256Mi' } } }] },
      },
    },
  };
}

export function pod(name: string, cpu: string): V1Pod {
  return builders.pod({ name, requests: { cpu } });
}

export interface ProvisioningBed {
  cluster: SimulatedCluster;
  /** While false, launched instances never boot (no Node registers). */
  bootNodes: boolean;
  kube: Kube;
  state: ClusterState;
  provider: FakeCloudProvider;
  metrics: Metrics;
  provisioner: ProvisioningController;
  lifecycle: LifecycleController;
  /** Stops the controllers (a crash); `startControllers` starts fresh ones. */
  stopControllers(): Promise<void>;
  startControllers(): void;
  until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs?: number): Promise<T>;
  nodeClaims(): Promise<NodeClaim[]>;
  pods(): Promise<V1Pod[]>;
  events(reason: string): Promise<{ involvedObject?: { name?: string }; message?: string }[]>;
  close(): Promise<void>;
}

export interface BedOptions {
  provisioning?: ProvisioningOptions;
  lifecycle?: LifecycleOptions;
  /** Start with the controllers stopped. */
  manual?: boolean;
  /**
   * Register our extender with the scheduler simulator (nodeCacheCapable, as `run` serves it): its "no node left"
   * signal triggers the provisioner, as the operator wires it. `onNeedsCapacity` also sees each signal.
   */
  extender?: { onNeedsCapacity?: (podKey: string) => void };
  /** Sees every pod the pending-pod source delivers to the provisioner (the pod-condition path). */
  onPendingPodDelivered?: (pod: V1Pod) => void;
  /** Feed NodeOverlays into state (the NodeOverlay gate). */
  nodeOverlays?: boolean;
}

/** The extender server over ClusterState, its signal forwarded to whatever provisioner runs now. */
async function startBedExtender(
  state: ClusterState,
  options: NonNullable<BedOptions['extender']>,
  trigger: (podKey: string) => void,
): Promise<RunningExtenderServer> {
  return createExtenderServer({
    view: clusterStateExtenderView(state, new CatalogPriceBook({})),
    onNeedsCapacity: (podKey) => {
      options.onNeedsCapacity?.(podKey);
      trigger(podKey);
    },
  }).listen(0, '127.0.0.1');
}

function observed(source: PendingPodSource, observe: ((pod: V1Pod) => void) | undefined): PendingPodSource {
  if (!observe) return source;
  return { ...source, subscribe: (onPod) => source.subscribe((pod) => (observe(pod), onPod(pod))) };
}

export async function startProvisioningBed(options: BedOptions = {}): Promise<ProvisioningBed> {
  const clock = new SystemClock();
  const provider = new FakeCloudProvider({ instanceTypes: testInstanceTypes, clock });
  const knobs = { bootNodes: true };
  const state = new ClusterState({ clock });
  let triggerProvisioner: (podKey: string) => void = () => undefined;
  const extender = options.extender ? await startBedExtender(state, options.extender, (key) => triggerProvisioner(key)) : undefined;
  const cluster = await startSimulatedCluster({
    clock,
    cloudSources: [fakeInstanceSource(provider, () => knobs.bootNodes)],
    kubelet: { readyDelayMs: 100, pollIntervalMs: 50, podStartDelayMs: 50 },
    scheduler: { queueTimings: { initialBackoffMs: 100, maxBackoffMs: 200, maxUnschedulableMs: 500 } },
    ...(extender
      ? {
          extender: {
            urlPrefix: `${extender.url}/scheduler`,
            filterVerb: 'filter',
            prioritizeVerb: 'prioritize',
            weight: 1,
            nodeCacheCapable: true,
            ignorable: true,
          },
        }
      : {}),
  });
  const ext = cluster.kubeConfig.makeApiClient(ApiextensionsV1Api);
  for (const def of CrdDefinitions)
    await ext.createCustomResourceDefinition({ body: buildCrd(def) as unknown as V1CustomResourceDefinition });
  await cluster.apiServer.settle();
  const kube = createKube(cluster.kubeConfig);
  const informers: ClusterStateInformers = createClusterStateInformers({
    kubeConfig: cluster.kubeConfig,
    kube,
    clock,
    state,
    nodeOverlays: options.nodeOverlays ?? false,
  });
  const pendingPods: PendingPodSource = observed(
    createPendingPodInformer({ kubeConfig: cluster.kubeConfig, kube, clock }),
    options.onPendingPodDelivered,
  );
  const metrics = createMetrics(new Registry());
  const events = new EventRecorder({ kube, clock, component: 'karpenter' });
  await informers.start();
  await informers.waitForSync();
  await pendingPods.start();

  let abort = new AbortController();
  let running: Promise<unknown> = Promise.resolve();
  const make = () => {
    const lifecycle = createLifecycleController({
      kube,
      state,
      cloudProvider: provider,
      clock,
      metrics,
      events,
      unavailableOfferings: provider.unavailableOfferings,
      onCapacityShortage: () => provisioner.trigger('capacity-shortage'),
      options: { resyncIntervalMs: 50, retryBackoff: { baseDelayMs: 20, maxDelayMs: 200 }, ...options.lifecycle },
    });
    const provisioner = createProvisioningController({
      kube,
      state,
      cloudProvider: provider,
      clock,
      metrics,
      events,
      pendingPods,
      onNodeClaimCreated: (c) => lifecycle.enqueue(c.metadata?.name ?? ''),
      options: { idleMs: 100, maxMs: 1_000, resyncIntervalMs: 500, ...options.provisioning },
    });
    const termination = createTerminationController({
      kube,
      state,
      cloudProvider: provider,
      clock,
      logger: silentLogger,
      metrics,
      events,
      random: () => 0.5,
      options: { pollIntervalMs: 50, cloudDeleteBackoff: { baseDelayMs: 20, maxDelayMs: 200 } },
    });
    return { lifecycle, provisioner, termination };
  };
  let controllers = make();
  triggerProvisioner = (key) => controllers.provisioner.trigger(key);

  const bed: ProvisioningBed = {
    get bootNodes() {
      return knobs.bootNodes;
    },
    set bootNodes(value: boolean) {
      knobs.bootNodes = value;
    },
    cluster,
    kube,
    state,
    provider,
    metrics,
    get provisioner() {
      return controllers.provisioner;
    },
    get lifecycle() {
      return controllers.lifecycle;
    },
    async stopControllers() {
      abort.abort();
      await running;
    },
    startControllers() {
      abort = new AbortController();
      controllers = make();
      running = Promise.all([
        controllers.provisioner.start(abort.signal),
        controllers.lifecycle.start(abort.signal),
        controllers.termination.start(abort.signal),
      ]);
    },
    async until(what, check, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = await check();
        if (value !== undefined && value !== false) return value;
        if (Date.now() > deadline) throw new Error(`waiting for ${what}: not reached`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    nodeClaims: async () => (await kube.list<NodeClaim>(Resources.NodeClaim)).items,
    pods: async () => (await kube.list<V1Pod>(Resources.Pod, { namespace: 'default' })).items,
    events: async (reason) =>
      (
        await kube.list<{ reason?: string; involvedObject?: { name?: string }; message?: string; metadata?: object }>(Resources.Event)
      ).items.filter((e) => e.reason === reason),
    async close() {
      await bed.stopControllers();
      await pendingPods.stop();
      await informers.stop();
      await cluster.close();
      await extender?.close();
    },
  };
  if (!options.manual) bed.startControllers();
  return bed;
}
