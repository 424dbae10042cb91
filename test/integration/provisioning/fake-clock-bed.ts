/**
 * The whole provisioning loop on one FakeClock: the simulated API server, scheduler and kubelet, ClusterState
 * informers, the fake cloud provider whose instances boot after a per-instance delay, and the real
 * provisioning, lifecycle, termination and disruption controllers with their production windows. `run`
 * pumps the clock; nothing sleeps through real time.
 */
import { ApiextensionsV1Api, type V1CustomResourceDefinition, type V1Pod } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { buildCrd, CrdDefinitions, type NodeClaim } from '../../../src/apis/index.js';
import { FakeCloudProvider } from '../../../src/cloudprovider/fake/index.js';
import { createDisruptionController, type DisruptionController } from '../../../src/controllers/disruption/index.js';
import { createLifecycleController } from '../../../src/controllers/nodeclaim/lifecycle/index.js';
import { createNodeHealthController } from '../../../src/controllers/node/health-controller.js';
import type { RepairPolicy } from '../../../src/cloudprovider/types.js';
import {
  createPendingPodInformer,
  createProvisioningController,
  type ProvisioningController,
} from '../../../src/controllers/provisioning/index.js';
import { createTerminationController } from '../../../src/controllers/termination/termination-controller.js';
import type { InstanceType } from '../../../src/domain/instancetypes/types.js';
import { createKube, EventRecorder, type Kube, Resources } from '../../../src/kube/index.js';
import { createMetrics, type Metrics } from '../../../src/metrics/registry.js';
import { ClusterState, createClusterStateInformers } from '../../../src/state/index.js';
import { startSimulatedCluster, type SimulatedCluster } from '../../../src/testbed/cluster/index.js';
import type { WatchDelaySettings } from '../../../src/testbed/cluster/apiserver/index.js';
import { PauseSchedule, type PauseSettings } from '../../../src/testbed/faults/stall.js';
import { fakeInstanceSource } from './harness.js';
import { FakeClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';

/** The fake cloud, recording every instance it launched with its price. */
export class LaunchRecordingProvider extends FakeCloudProvider {
  readonly launches: { providerID: string; instanceType: string; zone: string; pricePerHour: number }[] = [];

  override async create(nodeClaim: Parameters<FakeCloudProvider['create']>[0]): Promise<Awaited<ReturnType<FakeCloudProvider['create']>>> {
    const instance = await super.create(nodeClaim);
    if (!this.launches.some((l) => l.providerID === instance.providerID)) {
      const offering = this.instanceTypes.find((t) => t.name === instance.instanceType)?.offerings.find((o) => o.zone === instance.zone);
      this.launches.push({
        providerID: instance.providerID,
        instanceType: instance.instanceType,
        zone: instance.zone,
        pricePerHour: offering?.pricePerHour ?? Number.NaN,
      });
    }
    return instance;
  }
}

export interface FakeClockBedOptions {
  instanceTypes: InstanceType[];
  /** Fake milliseconds from launch until the instance's kubelet registers a Node. */
  bootDelayMs: (providerID: string) => number;
  /** kube-scheduler's retry of unschedulable pods (its lag in noticing new capacity). */
  schedulerBackoffMs: number;
  /** The fake cloud's repair policies (none by default). */
  repairPolicies?: RepairPolicy[];
  /** Runs the node repair controller too (the `NodeRepair` feature gate). */
  nodeRepair?: boolean;
  /** Wraps the disruption controller's API client (to hold or observe its writes). */
  disruptionKube?: (kube: Kube) => Kube;
  /** Watch events of the simulated API server arrive late (per resource, seeded). */
  watchDelays?: WatchDelaySettings;
  /** The operator freezes now and then: `run` jumps the clock by a pause in one step, every sleeper waking at once. */
  pauses?: PauseSettings;
}

export interface FakeClockBed {
  clock: FakeClock;
  cluster: SimulatedCluster;
  kube: Kube;
  state: ClusterState;
  provider: LaunchRecordingProvider;
  metrics: Metrics;
  events: EventRecorder;
  provisioner: ProvisioningController;
  disruption: DisruptionController;
  /** Every NodeClaim ever seen, by name (deleted ones included). */
  claimsEver: Map<string, NodeClaim>;
  /** Per pod, each target the provisioner nominated it to (`nodeclaim/<name>`, `node/<name>`), when first seen. */
  nominations: Map<string, { target: string; at: number }[]>;
  /** Per pod of the default namespace, the node it was bound to when a step saw it bound (deleted pods kept). */
  bindings: Map<string, string>;
  /** Pumps the clock in `stepMs` steps until `check` holds or `maxFakeMs` passed; returns whether it held. */
  run(check: () => boolean | Promise<boolean>, maxFakeMs: number, stepMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

export async function startFakeClockBed(options: FakeClockBedOptions): Promise<FakeClockBed> {
  const clock = new FakeClock(Date.UTC(2026, 0, 5, 9));
  const provider = new LaunchRecordingProvider({
    instanceTypes: options.instanceTypes,
    clock,
    ...(options.repairPolicies ? { repairPolicies: options.repairPolicies } : {}),
  });
  const booted = fakeInstanceSource(provider, (i) => clock.now() >= i.createdAt + options.bootDelayMs(i.providerID));
  const cluster = await startSimulatedCluster({
    clock,
    apiServer: { gracefulPodDeletion: false, ...(options.watchDelays ? { watchDelays: options.watchDelays } : {}) },
    cloudSources: [booted],
    kubelet: { readyDelayMs: 1_000, pollIntervalMs: 500, podStartDelayMs: 500 },
    scheduler: {
      queueTimings: { initialBackoffMs: options.schedulerBackoffMs, maxBackoffMs: options.schedulerBackoffMs, maxUnschedulableMs: 60_000 },
    },
  });
  const ext = cluster.kubeConfig.makeApiClient(ApiextensionsV1Api);
  for (const def of CrdDefinitions)
    await ext.createCustomResourceDefinition({ body: buildCrd(def) as unknown as V1CustomResourceDefinition });
  await cluster.apiServer.settle();
  const kube = createKube(cluster.kubeConfig);
  const state = new ClusterState({ clock });
  const claimsEver = new Map<string, NodeClaim>();
  const informers = createClusterStateInformers({ kubeConfig: cluster.kubeConfig, kube, clock, state });
  const pendingPods = createPendingPodInformer({ kubeConfig: cluster.kubeConfig, kube, clock });
  const metrics = createMetrics(new Registry());
  const events = new EventRecorder({ kube, clock, component: 'karpenter' });
  await informers.start();
  await informers.waitForSync();
  await pendingPods.start();
  state.onNodeChange(() => {
    for (const c of state.nodeClaimList()) claimsEver.set(c.metadata?.name ?? '', c);
  });

  const lifecycle = createLifecycleController({
    kube,
    state,
    cloudProvider: provider,
    clock,
    metrics,
    events,
    unavailableOfferings: provider.unavailableOfferings,
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
  });
  const disruption = createDisruptionController({
    kube: options.disruptionKube ? options.disruptionKube(kube) : kube,
    state,
    cloudProvider: provider,
    clock,
    metrics,
    recorder: events,
    options: { driftCheckIntervalMs: 0 },
  });
  const abort = new AbortController();
  const pauses = options.pauses ? new PauseSchedule(options.pauses) : undefined;
  const health = options.nodeRepair ? [createNodeHealthController({ kube, state, cloudProvider: provider, clock, metrics, events })] : [];
  const running = Promise.all([provisioner, lifecycle, termination, disruption, ...health].map((c) => c.start(abort.signal)));

  // The Nominated Event of a pod carries its latest target (a repeat updates the message): sampled every step.
  const nominations = new Map<string, { target: string; at: number }[]>();
  const recordNominations = async (): Promise<void> => {
    type Nominated = { reason?: string; message?: string; involvedObject?: { name?: string }; metadata?: object };
    for (const e of (await kube.list<Nominated>(Resources.Event, { namespace: 'default' })).items) {
      if (e.reason !== 'Nominated') continue;
      const pod = e.involvedObject?.name ?? '';
      const target = (e.message ?? '').replace('Pod should schedule on: ', '');
      const seen = nominations.get(pod) ?? [];
      if (seen.at(-1)?.target !== target) nominations.set(pod, [...seen, { target, at: clock.now() }]);
    }
  };
  const bindings = new Map<string, string>();
  const recordClaims = async (): Promise<void> => {
    for (const c of (await kube.list<NodeClaim>(Resources.NodeClaim)).items) claimsEver.set(c.metadata?.name ?? '', c);
    for (const p of (await kube.list<V1Pod>(Resources.Pod, { namespace: 'default' })).items)
      if (p.spec?.nodeName) bindings.set(p.metadata?.name ?? '', p.spec.nodeName);
    await recordNominations();
  };

  return {
    clock,
    cluster,
    kube,
    state,
    provider,
    metrics,
    events,
    provisioner,
    disruption,
    claimsEver,
    nominations,
    bindings,
    async run(check, maxFakeMs, stepMs = 250) {
      for (let elapsed = 0; elapsed <= maxFakeMs;) {
        await recordClaims();
        if (await check()) return true;
        // A freeze never carries the clock past the last check.
        const step = stepMs + Math.min(pauses?.next() ?? 0, Math.max(0, maxFakeMs - elapsed - stepMs));
        clock.step(step);
        elapsed += step;
        await new Promise((r) => setTimeout(r, 2));
      }
      return false;
    },
    async close() {
      abort.abort();
      await running.catch(() => undefined);
      await pendingPods.stop();
      await informers.stop();
      await cluster.close();
    },
  };
}
