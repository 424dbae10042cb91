// Two Kubernetes clusters, each with its own service (the cloud provider `run` builds, garbage collection),
// against ONE emulated cloud project (on OVH: one MKS cluster both NodeClasses name). Each cluster has a node
// and the first has one leaked instance: garbage collection in each deletes only its own leak, never the
// other cluster's nodes. On OVH there is no operator-wide MKS cluster: the NodeClass alone names it.
import { NodeClassSecretLabel } from '../../../src/domain/secrets/secret-access.js';
import https from 'node:https';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiextensionsV1Api, type KubernetesObject, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { buildCrd, CrdDefinitions } from '../../../src/apis/index.js';
import { FinalizerTermination, LabelInstanceType, LabelNodePool } from '../../../src/apis/v1/labels.js';
import { NodeClaimApiVersion, NodeClaimKind, type NodeClaim } from '../../../src/apis/v1/nodeclaim.js';
import type { CloudProvider } from '../../../src/cloudprovider/types.js';
import { UnavailableOfferings } from '../../../src/cloudprovider/unavailable-offerings.js';
import {
  createGarbageCollectionController,
  type GarbageCollectionController,
} from '../../../src/controllers/nodeclaim/garbagecollection/garbage-collection-controller.js';
import { createKube, EventRecorder, Resources, type Kube } from '../../../src/kube/index.js';
import { createMetrics } from '../../../src/metrics/registry.js';
import {
  outscaleProviderFactory,
  ovhProviderFactory,
  scalewayProviderFactory,
  type CloudProviderDeps,
} from '../../../src/operator/cloud-providers.js';
import { ClusterState, createClusterStateInformers } from '../../../src/state/index.js';
import { startSimulatedCluster, type SimulatedCluster } from '../../../src/testbed/cluster/index.js';
import { startOutscaleEmulator, type OutscaleEmulator } from '../../../src/testbed/emulators/outscale/index.js';
import { startOvhcloudEmulator, type OvhcloudEmulator } from '../../../src/testbed/emulators/ovhcloud/index.js';
import { startScalewayEmulator, type ScalewayEmulator } from '../../../src/testbed/emulators/scaleway/index.js';
import { FakeClock, type Clock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';
import { eventually } from '../termination/termination-bed.js';

/** The service's view of the FakeClock: its polls and backoffs move time instead of blocking. */
function autoAdvancing(clock: FakeClock): Clock {
  return {
    now: () => clock.now(),
    elapsed: () => clock.now(),
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      clock.step(ms);
      await new Promise<void>((resolve) => setImmediate(resolve));
    },
  };
}

/** What one cloud contributes: the provider `run` would build, the objects its NodeClass needs, a NodeClaim. */
interface CloudSetup {
  provider(deps: CloudProviderDeps): CloudProvider;
  objects: KubernetesObject[];
  nodeClassRef: { group: string; kind: string; name: string };
  instanceType: string;
  /** Provider IDs of the instances that run (not deleted or being deleted). */
  live(): string[];
}

interface ClusterBed {
  kube: Kube;
  provider: CloudProvider;
  gc: GarbageCollectionController;
  launch(name: string): Promise<string>;
  leak(name: string): Promise<string>;
  close(): Promise<void>;
}

async function startCluster(clock: FakeClock, clusterName: string, cloud: CloudSetup): Promise<ClusterBed> {
  const cluster: SimulatedCluster = await startSimulatedCluster({
    clock,
    cloudSources: [],
    kubelet: { readyDelayMs: 1_000, podStartDelayMs: 0, nodeRemovalDelayMs: 600_000 },
  });
  const ext = cluster.kubeConfig.makeApiClient(ApiextensionsV1Api);
  for (const def of CrdDefinitions)
    await ext.createCustomResourceDefinition({ body: buildCrd(def) as unknown as V1CustomResourceDefinition });
  await cluster.apiServer.settle();
  const kube = createKube(cluster.kubeConfig);
  const state = new ClusterState({ clock });
  const informers = createClusterStateInformers({ kubeConfig: cluster.kubeConfig, kube, clock, state });
  await informers.start();
  await informers.waitForSync();
  for (const object of cloud.objects) await kube.create(resourceOf(object), object);
  await eventually(() => state.nodeClass(cloud.nodeClassRef.kind, cloud.nodeClassRef.name));
  const provider = cloud.provider({
    clusterName,
    kube,
    state,
    clock: autoAdvancing(clock),
    registry: new Registry(),
    unavailableOfferings: new UnavailableOfferings({ clock }),
    nodeClassSecrets: { namespaces: ['default'], label: NodeClassSecretLabel, forbidden: [] },
  });
  const metrics = createMetrics(new Registry());
  const events = new EventRecorder({ kube, clock, component: 'karpenter' });
  const gc = createGarbageCollectionController({
    kube,
    state,
    cloudProvider: provider,
    clock,
    logger: silentLogger,
    metrics,
    events,
    options: { gracePeriodMs: 30_000 },
  });
  const manifest = (name: string): NodeClaim => ({
    apiVersion: NodeClaimApiVersion,
    kind: NodeClaimKind,
    metadata: { name, labels: { [LabelNodePool]: 'default' }, finalizers: [FinalizerTermination] },
    spec: {
      nodeClassRef: cloud.nodeClassRef,
      requirements: [{ key: LabelInstanceType, operator: 'In', values: [cloud.instanceType] }],
      resources: { requests: { cpu: '100m' } },
    },
  });
  return {
    kube,
    provider,
    gc,
    async launch(name) {
      const created = await kube.create<NodeClaim>(Resources.NodeClaim, manifest(name));
      const launched = await provider.create(created);
      await kube.patch(
        Resources.NodeClaim,
        { name },
        { type: 'merge', body: { status: { providerID: launched.providerID } } },
        { status: true },
      );
      await eventually(() => state.nodeClaim(name)?.status?.providerID);
      return launched.providerID;
    },
    async leak(name) {
      // Launched, then its NodeClaim was removed without its finalizer (nothing deleted the instance).
      const created = await kube.create<NodeClaim>(Resources.NodeClaim, {
        ...manifest(name),
        metadata: { name, labels: { [LabelNodePool]: 'default' } },
      });
      const launched = await provider.create(created);
      await kube.delete(Resources.NodeClaim, { name });
      await eventually(() => state.nodeClaim(name) === undefined);
      return launched.providerID;
    },
    async close() {
      await informers.stop();
      await cluster.close();
    },
  };
}

function resourceOf(object: KubernetesObject) {
  const found = Object.values(Resources).find((r) => r.kind === object.kind);
  if (!found) throw new Error(`no resource for ${object.kind ?? ''}`);
  return found;
}

function secret(name: string, data: Record<string, string>): KubernetesObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: 'default', labels: { [NodeClassSecretLabel.key]: NodeClassSecretLabel.value } },
    stringData: data,
  } as KubernetesObject;
}

const joinToken = secret('join', { token: 'abcdef.0123456789abcdef' });

async function scaleway(clock: FakeClock): Promise<{ setup: CloudSetup; close(): Promise<void> }> {
  const emulator: ScalewayEmulator = await startScalewayEmulator({ clock });
  const { accessKey, secretKey, projectId } = emulator.credentials;
  const nodeClass = {
    apiVersion: 'karpenter.scaleway.sh/v1alpha1',
    kind: 'ScalewayNodeClass',
    metadata: { name: 'default' },
    spec: {
      projectId,
      zones: ['fr-par-1'],
      image: 'ubuntu_jammy',
      join: { apiServerEndpoint: 'https://10.0.0.1:6443', tokenSecretRef: { name: 'join', namespace: 'default', key: 'token' } },
    },
  };
  return {
    setup: {
      provider: (deps) => scalewayProviderFactory({ accessKey, secretKey, projectId, region: 'fr-par', apiUrl: emulator.url }, deps),
      objects: [joinToken, nodeClass],
      nodeClassRef: { group: 'karpenter.scaleway.sh', kind: 'ScalewayNodeClass', name: 'default' },
      instanceType: 'DEV1-S',
      live: () =>
        emulator
          .state()
          .instances.filter((i) => i.state === 'running' || i.state === 'starting')
          .map((i) => i.providerID),
    },
    close: () => emulator.close(),
  };
}

async function outscale(clock: FakeClock): Promise<{ setup: CloudSetup; close(): Promise<void> }> {
  const emulator: OutscaleEmulator = await startOutscaleEmulator({ clock });
  const nodeClass = {
    apiVersion: 'karpenter.outscale.sh/v1alpha1',
    kind: 'OutscaleNodeClass',
    metadata: { name: 'default' },
    spec: {
      region: emulator.region,
      clusterId: 'cluster-1',
      imageId: emulator.network.images.ubuntu,
      securityGroupIds: [emulator.network.securityGroups.worker],
      subnets: Object.entries(emulator.network.subnets).map(([subregion, subnetId]) => ({ subregion, subnetId })),
      keypairName: emulator.network.keypairName,
      userData: { format: 'CloudInit', content: '#cloud-config\nruncmd: [kubeadm join]\n' },
    },
  };
  return {
    setup: {
      provider: (deps) => outscaleProviderFactory({ ...emulator.credentials, region: emulator.region, endpoint: emulator.url }, deps),
      objects: [nodeClass],
      nodeClassRef: { group: 'karpenter.outscale.sh', kind: 'OutscaleNodeClass', name: 'default' },
      instanceType: 'tinav7.c2r4p2',
      live: () =>
        emulator
          .state()
          .instances.filter((i) => i.state === 'running' || i.state === 'pending')
          .map((i) => i.providerID),
    },
    close: () => emulator.close(),
  };
}

async function ovhcloud(clock: FakeClock): Promise<{ setup: CloudSetup; close(): Promise<void> }> {
  // The SDK stamps requests with real time + the offset read once from /auth/time; fake time moves on.
  const emulator: OvhcloudEmulator = await startOvhcloudEmulator({ clock, maxClockSkewSeconds: 10 * 365 * 86_400 });
  const previousCa = https.globalAgent.options.ca;
  https.globalAgent.options.ca = emulator.caPem;
  const { serviceName, kubeId } = emulator.cluster;
  const c = emulator.credentials;
  const nodeClass = {
    apiVersion: 'karpenter.ovhcloud.sh/v1alpha1',
    kind: 'OVHNodeClass',
    metadata: { name: 'default' },
    spec: { serviceName, kubeId },
  };
  return {
    setup: {
      // Operator-wide credentials only: no OVH_SERVICE_NAME / OVH_KUBE_ID.
      provider: (deps) =>
        ovhProviderFactory(
          { endpoint: emulator.url, applicationKey: c.applicationKey, applicationSecret: c.applicationSecret, consumerKey: c.consumerKey },
          deps,
        ),
      objects: [nodeClass],
      nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'default' },
      instanceType: 'b3-8',
      live: () =>
        emulator
          .state()
          .instances.filter((i) => i.state === 'READY' || i.state === 'INSTALLING')
          .flatMap((i) => (i.providerID ? [i.providerID] : [])),
    },
    close: async () => {
      await emulator.close();
      https.globalAgent.options.ca = previousCa;
    },
  };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

describe("two clusters in one cloud project: garbage collection never deletes the other cluster's instances", () => {
  it.each([
    ['scaleway', scaleway],
    ['outscale', outscale],
    ['ovhcloud', ovhcloud],
  ])('%s', async (_cloud, start) => {
    const clock = new FakeClock();
    const cloud = await start(clock);
    closers.push(() => cloud.close());
    const alpha = await startCluster(clock, 'alpha', cloud.setup);
    closers.push(() => alpha.close());
    const beta = await startCluster(clock, 'beta', cloud.setup);
    closers.push(() => beta.close());

    const alphaNode = await alpha.launch('alpha-1');
    const betaNode = await beta.launch('beta-1');
    const alphaLeak = await alpha.leak('alpha-lost');
    expect(cloud.setup.live().sort()).toEqual([alphaNode, betaNode, alphaLeak].sort());

    clock.step(60_000);
    const alphaDeleted: string[] = [];
    const betaDeleted: string[] = [];
    for (let pass = 0; pass < 3; pass++) {
      const [a, b] = [await alpha.gc.reconcileOnce(), await beta.gc.reconcileOnce()];
      expect(a.skipped).toBeUndefined();
      expect(b.skipped).toBeUndefined();
      alphaDeleted.push(...a.instancesDeleted);
      betaDeleted.push(...b.instancesDeleted);
      expect([...a.nodeClaimsDeleted, ...b.nodeClaimsDeleted]).toEqual([]);
      clock.step(30_000);
    }
    expect(alphaDeleted).toEqual([alphaLeak]);
    expect(betaDeleted).toEqual([]);
    expect(cloud.setup.live().sort()).toEqual([alphaNode, betaNode].sort());
  });
});
