/**
 * A disruption test bed: the simulated API server (Deployment/ReplicaSet/PDB controllers, Eviction API) and
 * scheduler simulator, ClusterState informers, the fake cloud provider, the real termination controller, and a
 * small stand-in for the NodeClaim lifecycle controller (not written yet): it launches each new NodeClaim on
 * the fake cloud, registers its Node Ready + initialized and marks bound pods Running/Ready (the kubelet's part
 * for these Nodes). Disruption and termination run on one FakeClock, pumped forward while the test waits.
 */
import { ApiextensionsV1Api, type V1CustomResourceDefinition, type V1Node, type V1Pod } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import {
  buildCrd,
  CrdDefinitions,
  FinalizerTermination,
  LabelNodeInitialized,
  LabelNodeRegistered,
  LabelTopologyZone,
  type NodeClaim,
  type NodePool,
} from '../../../src/apis/index.js';
import type { CloudProviderNodeClaim, DriftReason } from '../../../src/cloudprovider/types.js';
import { FakeCloudProvider, fakeInstanceType } from '../../../src/cloudprovider/fake/index.js';
import { createDisruptionController, type DisruptionController } from '../../../src/controllers/disruption/index.js';
import { createTerminationController } from '../../../src/controllers/termination/termination-controller.js';
import { createKube, EventRecorder, type Kube, Resources } from '../../../src/kube/index.js';
import { createMetrics, type Metrics } from '../../../src/metrics/registry.js';
import { ClusterState, createClusterStateInformers, type ClusterStateInformers } from '../../../src/state/index.js';
import { startSimulatedCluster, type SimulatedCluster } from '../../../src/testbed/cluster/index.js';
import { type Clock, FakeClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';
import * as builders from '../../builders.js';

/** Cheapest first: 2, 4, 8 vCPU; price proportional to size. */
export const testInstanceTypes = [
  fakeInstanceType({ name: 'm-2', cpu: 2, memoryMiB: 8192, pricePerHour: 0.04 }),
  fakeInstanceType({ name: 'm-4', cpu: 4, memoryMiB: 16384, pricePerHour: 0.08 }),
  fakeInstanceType({ name: 'm-8', cpu: 8, memoryMiB: 32768, pricePerHour: 0.16 }),
];

/** isDrifted answers per providerID, as a NodeClass image change would for instances launched before it. */
export class DriftingFakeProvider extends FakeCloudProvider {
  readonly driftedProviderIDs = new Set<string>();
  override async isDrifted(nodeClaim: CloudProviderNodeClaim): Promise<DriftReason | undefined> {
    return this.driftedProviderIDs.has(nodeClaim.status?.providerID ?? '') ? 'ImageDrifted' : undefined;
  }
}

/** Monday 2026-01-05 at `hour`:00 UTC (the whole bed runs on the FakeClock). */
export function mondayAt(hour: number): number {
  return Date.UTC(2026, 0, 5, hour);
}

export interface TestBed {
  cluster: SimulatedCluster;
  kube: Kube;
  clock: FakeClock;
  state: ClusterState;
  provider: DriftingFakeProvider;
  metrics: Metrics;
  disruption: DisruptionController;
  /** Names of the replacement NodeClaims the disruption controller announced (onNodeClaimCreated). */
  announcedReplacements: string[];
  /** Waits (pumping the fake clock 1 s per few real ms) until `check` holds; throws after `maxSteps`. */
  until(what: string, check: () => boolean | Promise<boolean>, maxSteps?: number): Promise<void>;
  /** Runs one disruption pass to the end (validation delay pumped). */
  disruptOnce(): Promise<Awaited<ReturnType<DisruptionController['reconcile']>>>;
  nodeClaims(): NodeClaim[];
  pricePerHour(): number;
  close(): Promise<void>;
}

export function nodePool(name: string, disruption: NodePool['spec']['disruption']): NodePool {
  return builders.nodePool({ name, disruption, expireAfter: 'Never' });
}

function nodeFor(claim: NodeClaim, launched: Awaited<ReturnType<FakeCloudProvider['create']>>): V1Node {
  const name = claim.metadata?.name ?? '';
  const allocatable = {
    cpu: `${launched.allocatable.cpu}m`,
    memory: String(launched.allocatable.memory),
    pods: String(launched.allocatable.pods ?? 110),
  };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      finalizers: [FinalizerTermination],
      labels: {
        ...launched.labels,
        ...(claim.metadata?.labels ?? {}),
        'kubernetes.io/hostname': name,
        [LabelTopologyZone]: launched.zone,
        'node.kubernetes.io/instance-type': launched.instanceType,
        [LabelNodeRegistered]: 'true',
        [LabelNodeInitialized]: 'true',
      },
    },
    spec: { providerID: launched.providerID },
    status: { allocatable, capacity: allocatable, conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

async function launchNewClaims(kube: Kube, provider: FakeCloudProvider, now: string): Promise<void> {
  const claims = (await kube.list<NodeClaim>(Resources.NodeClaim)).items.filter(
    (c) => !c.status?.providerID && !c.metadata?.deletionTimestamp,
  );
  for (const claim of claims) {
    const launched = await provider.create(claim);
    const name = claim.metadata?.name ?? '';
    await kube.patch(
      Resources.NodeClaim,
      { name },
      {
        type: 'merge',
        body: {
          metadata: {
            finalizers: [FinalizerTermination],
            labels: { 'node.kubernetes.io/instance-type': launched.instanceType, [LabelTopologyZone]: launched.zone },
          },
        },
      },
    );
    await kube.create(Resources.Node, nodeFor(claim, launched));
    const conditions = ['Launched', 'Registered', 'Initialized'].map((type) => ({
      type,
      status: 'True',
      reason: type,
      message: '',
      lastTransitionTime: now,
    }));
    const allocatable = { cpu: `${launched.allocatable.cpu}m`, memory: String(launched.allocatable.memory), pods: '110' };
    await kube.patch(
      Resources.NodeClaim,
      { name },
      {
        type: 'merge',
        body: { status: { providerID: launched.providerID, nodeName: name, allocatable, capacity: allocatable, conditions } },
      },
      { status: true },
    );
  }
}

async function markPodsReady(kube: Kube, now: string): Promise<void> {
  const pods = (await kube.list<V1Pod>(Resources.Pod)).items.filter(
    (p) => p.spec?.nodeName && p.status?.phase !== 'Running' && !p.metadata?.deletionTimestamp,
  );
  for (const p of pods) {
    const body = { status: { phase: 'Running', startTime: now, conditions: [{ type: 'Ready', status: 'True' }] } };
    await kube
      .patch(
        Resources.Pod,
        { name: p.metadata?.name ?? '', namespace: p.metadata?.namespace ?? 'default' },
        { type: 'merge', body },
        { status: true },
      )
      .catch(() => undefined);
  }
}

export async function startTestBed(options: {
  start: number;
  disruption?: Parameters<typeof createDisruptionController>[0]['options'];
  /** The disruption controller's own clock, made from the bed's (the others keep the bed's). */
  disruptionClock?: (clock: FakeClock) => Clock;
}): Promise<TestBed> {
  const clock = new FakeClock(options.start);
  const cluster = await startSimulatedCluster({ clock, apiServer: { gracefulPodDeletion: false } });
  const ext = cluster.kubeConfig.makeApiClient(ApiextensionsV1Api);
  for (const def of CrdDefinitions)
    await ext.createCustomResourceDefinition({ body: buildCrd(def) as unknown as V1CustomResourceDefinition });
  await cluster.apiServer.settle();
  const kube = createKube(cluster.kubeConfig);
  const state = new ClusterState({ clock });
  const informers: ClusterStateInformers = createClusterStateInformers({ kubeConfig: cluster.kubeConfig, kube, clock, state });
  const provider = new DriftingFakeProvider({ instanceTypes: testInstanceTypes, clock });
  const metrics = createMetrics(new Registry());
  const recorder = new EventRecorder({ kube, clock, component: 'karpenter' });
  const announcedReplacements: string[] = [];
  const disruption = createDisruptionController({
    kube,
    state,
    cloudProvider: provider,
    clock: options.disruptionClock?.(clock) ?? clock,
    metrics,
    recorder,
    onNodeClaimCreated: (name) => announcedReplacements.push(name),
    options: { validationDelayMs: 15_000, driftCheckIntervalMs: 0, ...options.disruption },
  });
  const termination = createTerminationController({
    kube,
    state,
    cloudProvider: provider,
    clock,
    logger: silentLogger,
    metrics,
    events: recorder,
    random: () => 0.5,
    options: { pollIntervalMs: 1000 },
  });
  const abort = new AbortController();
  await informers.start();
  await informers.waitForSync();
  const terminating = termination.start(abort.signal);
  let driverError: unknown;
  const drive = async (): Promise<void> => {
    try {
      const now = new Date(clock.now()).toISOString();
      await launchNewClaims(kube, provider, now);
      await markPodsReady(kube, now);
    } catch (err) {
      driverError = err;
    }
  };

  const bed: TestBed = {
    cluster,
    kube,
    clock,
    state,
    provider,
    metrics,
    disruption,
    announcedReplacements,
    async until(what, check, maxSteps = 2000) {
      for (let i = 0; i < maxSteps; i++) {
        await drive();
        if (await check()) return;
        clock.step(1000);
        await new Promise((r) => setTimeout(r, 5));
      }
      throw new Error(
        `waiting for ${what}: not reached after ${maxSteps} fake seconds${driverError ? ` (driver error: ${String(driverError)})` : ''}`,
      );
    },
    async disruptOnce() {
      await drive();
      let done = false;
      const pass = disruption.reconcile(abort.signal).finally(() => (done = true));
      await bed.until('the disruption pass', () => done, 100);
      const decision = await pass;
      await bed.until('the command to finish', () => disruption.inFlight() === 0, 1500);
      return decision;
    },
    nodeClaims: () =>
      state
        .stateNodes()
        .filter((n) => n.nodeClaim && !n.nodeClaim.metadata?.deletionTimestamp)
        .map((n) => n.nodeClaim as NodeClaim),
    pricePerHour() {
      return bed.nodeClaims().reduce((sum, c) => {
        const type = testInstanceTypes.find((t) => t.name === c.metadata?.labels?.['node.kubernetes.io/instance-type']);
        return sum + (type?.offerings[0]?.pricePerHour ?? 0);
      }, 0);
    },
    async close() {
      abort.abort();
      await terminating;
      await informers.stop();
      await cluster.close();
    },
  };
  return bed;
}
