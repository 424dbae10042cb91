/**
 * A test bed for termination and garbage collection: the simulated cluster on a FakeClock, a
 * FakeCloudProvider whose instances the kubelet simulator turns into Nodes, ClusterState fed by informers,
 * a metrics registry, an Event recorder and a logger that keeps its lines.
 */
import { ApiextensionsV1Api, type V1CustomResourceDefinition, type V1Node } from '@kubernetes/client-node';
import { buildCrd, CrdDefinitions } from '../../../src/apis/index.js';
import { Registry } from 'prom-client';
import { FinalizerTermination, LabelNodePool } from '../../../src/apis/v1/labels.js';
import { NodeClaimApiVersion, NodeClaimKind, type NodeClaim } from '../../../src/apis/v1/nodeclaim.js';
import { FakeCloudProvider, FakeNodeClass, fakeInstanceTypes } from '../../../src/cloudprovider/fake/index.js';
import { createKube, EventRecorder, Resources, type Kube } from '../../../src/kube/index.js';
import { createMetrics, type Metrics } from '../../../src/metrics/registry.js';
import { ClusterState, createClusterStateInformers, type ClusterStateInformers } from '../../../src/state/index.js';
import {
  startSimulatedCluster,
  type CloudInstance,
  type CloudInstanceSource,
  type SimulatedCluster,
} from '../../../src/testbed/cluster/index.js';
import { FakeClock } from '../../../src/util/clock.js';
import { createLogger, type Logger } from '../../../src/util/logger.js';

export async function eventually<T>(check: () => T | undefined | false | Promise<T | undefined | false>, attempts = 300): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('condition not reached');
}

export function nodeNameOf(providerID: string): string {
  return `fake-${providerID.slice(providerID.lastIndexOf('/') + 1)}`;
}

/** The fake cloud's instances as running machines, so the kubelet simulator registers them as Nodes. */
export function fakeInstanceSource(cloud: FakeCloudProvider): CloudInstanceSource {
  return {
    cloud: 'scaleway',
    running(): CloudInstance[] {
      return [...cloud.instances.values()].map((i): CloudInstance => ({
        cloud: 'scaleway',
        nodeName: nodeNameOf(i.providerID),
        providerID: i.providerID,
        instanceType: i.instanceType,
        region: 'test-region',
        zone: i.zone,
        arch: 'amd64',
        capacity: { cpu: '4', memory: '8Gi', pods: '110' },
        labels: i.nodePoolName ? { [LabelNodePool]: i.nodePoolName } : ({} as Record<string, string>),
        taints: [],
        bootedAt: i.createdAt,
      }));
    },
  };
}

export interface TerminationBed {
  clock: FakeClock;
  cloud: FakeCloudProvider;
  cluster: SimulatedCluster;
  kube: Kube;
  state: ClusterState;
  metrics: Metrics;
  events: EventRecorder;
  logger: Logger;
  logLines: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function startTerminationBed(cloud?: (clock: FakeClock) => FakeCloudProvider): Promise<TerminationBed> {
  const clock = new FakeClock();
  const provider = cloud?.(clock) ?? new FakeCloudProvider({ instanceTypes: fakeInstanceTypes(3), clock });
  const cluster = await startSimulatedCluster({
    clock,
    cloudSources: [fakeInstanceSource(provider)],
    kubelet: { readyDelayMs: 1_000, podStartDelayMs: 0, nodeRemovalDelayMs: 600_000 },
  });
  const ext = cluster.kubeConfig.makeApiClient(ApiextensionsV1Api);
  for (const def of CrdDefinitions)
    await ext.createCustomResourceDefinition({ body: buildCrd(def) as unknown as V1CustomResourceDefinition });
  await cluster.apiServer.settle();
  const kube = createKube(cluster.kubeConfig);
  const state = new ClusterState({ clock });
  const informers: ClusterStateInformers = createClusterStateInformers({ kubeConfig: cluster.kubeConfig, kube, clock, state });
  await informers.start();
  await informers.waitForSync();
  const logLines: Array<Record<string, unknown>> = [];
  const logger = createLogger({ clock, sink: (line) => logLines.push(JSON.parse(line) as Record<string, unknown>), level: 'debug' });
  const events = new EventRecorder({ kube, clock, component: 'karpenter' });
  return {
    clock,
    cloud: provider,
    cluster,
    kube,
    state,
    metrics: createMetrics(new Registry()),
    events,
    logger,
    logLines,
    async close() {
      await informers.stop();
      await cluster.close();
    },
  };
}

export function nodeClaimManifest(
  name: string,
  annotations: Record<string, string> = {},
  spec: Partial<NodeClaim['spec']> = {},
): NodeClaim {
  return {
    apiVersion: NodeClaimApiVersion,
    kind: NodeClaimKind,
    metadata: { name, labels: { [LabelNodePool]: 'default' }, annotations, finalizers: [FinalizerTermination] },
    spec: {
      nodeClassRef: { group: FakeNodeClass.group, kind: FakeNodeClass.kind, name: 'default' },
      requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] }],
      ...spec,
    },
  };
}

/** Creates the NodeClaim, launches its instance and records the providerID, as provisioning + lifecycle would. */
export async function launchNodeClaim(bed: TerminationBed, manifest: NodeClaim): Promise<{ nodeClaim: NodeClaim; providerID: string }> {
  const created = await bed.kube.create<NodeClaim>(Resources.NodeClaim, manifest);
  const launched = await bed.cloud.create(created);
  const nodeClaim = await bed.kube.patch<NodeClaim>(
    Resources.NodeClaim,
    { name: manifest.metadata?.name ?? '' },
    { type: 'merge', body: { status: { providerID: launched.providerID } } },
    { status: true },
  );
  return { nodeClaim, providerID: launched.providerID };
}

/** Boots the Node of a launched instance until Ready, with our finalizer on it (lifecycle's job). */
export async function registerNode(bed: TerminationBed, providerID: string): Promise<string> {
  const name = nodeNameOf(providerID);
  await bed.cluster.kubelet.sync();
  await eventually(() => bed.cluster.kubelet.nodes.get(name));
  bed.clock.step(1_000);
  await bed.cluster.kubelet.sync();
  await bed.kube.patch(Resources.Node, { name }, { type: 'merge', body: { metadata: { finalizers: [FinalizerTermination] } } });
  await eventually(() => {
    const node = bed.state.node(name);
    return (
      isReady(node) &&
      (node?.metadata?.finalizers ?? []).includes(FinalizerTermination) &&
      bed.state.nodeClaimByProvider(providerID) !== undefined
    );
  });
  return name;
}

export function isReady(node: V1Node | undefined): boolean {
  return node?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

export async function metricValue(metrics: Metrics, name: string, labels: Record<string, string>): Promise<number> {
  const metric = metrics.registry.getSingleMetric(name);
  const data = await metric?.get();
  const match = data?.values.find((v) => Object.entries(labels).every(([k, value]) => v.labels[k] === value) && !('le' in v.labels));
  return match?.value ?? 0;
}
