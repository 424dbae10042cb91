/**
 * The OVHcloud provider wired to the loopback emulator through the real `ovh` SDK (via client.ts). One
 * FakeClock drives both; the provider sees it through an auto-advancing view, so its polling waits move
 * time instead of blocking. NodeClasses and Secrets are plain maps. Shared by wire tests and the contract suite.
 */
import https from 'node:https';
import type { OVHNodeClass } from '../../../src/apis/v1alpha1/ovh-nodeclass.js';
import { loadCatalog } from '../../../src/catalog/index.js';
import { NodeClassNotReadyError } from '../../../src/cloudprovider/errors.js';
import { createOvhClient, createOvhCloudProvider, type OvhApi, type OvhCloudProvider } from '../../../src/cloudprovider/ovhcloud/index.js';
import type {
  CloudProviderNodeClaim,
  CloudProviderNodePool,
  CloudProviderRequirement,
  NodeClassResolver,
  SecretReference,
} from '../../../src/cloudprovider/types.js';
import { UnavailableOfferings } from '../../../src/cloudprovider/unavailable-offerings.js';
import {
  startOvhcloudEmulator,
  type OvhcloudEmulator,
  type OvhcloudEmulatorOptions,
} from '../../../src/testbed/emulators/ovhcloud/index.js';
import type { BackoffPolicy } from '../../../src/util/backoff.js';
import { FakeClock, type Clock } from '../../../src/util/clock.js';

export const OvhClusterName = 'wire-cluster';
export const NodeClassRef = { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'default' };
export const FastRetry: BackoffPolicy = { baseDelayMs: 0, maxDelayMs: 0, maxAttempts: 3 };

export class MapResolver implements NodeClassResolver<OVHNodeClass> {
  readonly nodeClasses = new Map<string, OVHNodeClass>();
  readonly secrets = new Map<string, Record<string, string>>(); // "<namespace>/<name>" -> data

  async getNodeClass(name: string): Promise<OVHNodeClass> {
    const found = this.nodeClasses.get(name);
    if (!found) throw new NodeClassNotReadyError(`OVHNodeClass "${name}" not found`);
    return found;
  }

  async getSecretData(ref: SecretReference): Promise<Readonly<Record<string, string>>> {
    const found = this.secrets.get(`${ref.namespace}/${ref.name}`);
    if (!found) throw new NodeClassNotReadyError(`Secret ${ref.namespace}/${ref.name} not found`);
    return found;
  }
}

/** The provider's view of the FakeClock: sleeping moves time (the emulator's statuses follow it). */
export function autoAdvancing(clock: FakeClock): Clock {
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

export interface OvhTestbed {
  emulator: OvhcloudEmulator;
  clock: FakeClock;
  api: OvhApi;
  provider: OvhCloudProvider;
  /** A new provider on the same cloud, with nothing in memory: what a restarted process builds. */
  restart(): OvhCloudProvider;
  resolver: MapResolver;
  unavailable: UnavailableOfferings;
  nodePool: CloudProviderNodePool;
  nodeClass: OVHNodeClass;
  warnings: string[];
  nodeClaim(name: string, requirements?: CloudProviderRequirement[], requests?: Record<string, string>): CloudProviderNodeClaim;
  /** Moves time past boots and deletions. */
  settle(ms?: number): void;
  close(): Promise<void>;
}

export interface OvhTestbedOptions {
  emulator?: Omit<OvhcloudEmulatorOptions, 'clock'>;
  retryPolicy?: BackoffPolicy;
  nodeClass?: Partial<OVHNodeClass['spec']>;
  /** Real milliseconds before a call without answer fails (the timeout fault). */
  callTimeoutMs?: number;
  emptyPoolGraceMs?: number;
  /** No kubeId anywhere: the provider detects it from these providerIDs (this cluster's Nodes'). */
  detectFrom?: () => readonly string[];
}

export async function startOvhTestbed(options: OvhTestbedOptions = {}): Promise<OvhTestbed> {
  const clock = new FakeClock();
  // The SDK stamps requests with real time + the offset read once from /auth/time; fake time moves on.
  const emulator = await startOvhcloudEmulator({ maxClockSkewSeconds: 10 * 365 * 86_400, ...options.emulator, clock });
  const previousCa = https.globalAgent.options.ca;
  https.globalAgent.options.ca = emulator.caPem;
  const { appKey, appSecret, consumerKey, host, port } = emulator.clientOptions();
  const api = createOvhClient({
    applicationKey: appKey,
    applicationSecret: appSecret,
    consumerKey,
    host,
    port,
    timeoutMs: options.callTimeoutMs ?? 5_000,
  });
  const resolver = new MapResolver();
  const nodeClass: OVHNodeClass = {
    metadata: { name: 'default' },
    spec: {
      serviceName: emulator.cluster.serviceName,
      ...(options.detectFrom ? {} : { kubeId: emulator.cluster.kubeId }),
      tags: { team: 'platform' },
      ...options.nodeClass,
    },
  };
  resolver.nodeClasses.set('default', nodeClass);
  const unavailable = new UnavailableOfferings({ clock });
  const warnings: string[] = [];
  const makeProvider = (offerings: UnavailableOfferings): OvhCloudProvider =>
    createOvhCloudProvider({
      clusterName: OvhClusterName,
      api,
      nodeClasses: resolver,
      catalog: loadCatalog('ovhcloud'),
      unavailableOfferings: offerings,
      clock: autoAdvancing(clock),
      serviceName: emulator.cluster.serviceName,
      ...(options.detectFrom ? { clusterProviderIDs: options.detectFrom } : { kubeId: emulator.cluster.kubeId }),
      random: () => 0.5,
      retryPolicy: options.retryPolicy ?? FastRetry,
      pollIntervalMs: 500,
      launchTimeoutMs: 60_000,
      ...(options.emptyPoolGraceMs !== undefined ? { emptyPoolGraceMs: options.emptyPoolGraceMs } : {}),
      onWarning: (message) => warnings.push(message),
    });
  const provider = makeProvider(unavailable);
  const nodePool: CloudProviderNodePool = {
    metadata: { name: 'default' },
    spec: { template: { spec: { nodeClassRef: NodeClassRef, requirements: [] } } },
  };
  let uid = 0;
  return {
    emulator,
    clock,
    api,
    provider,
    resolver,
    unavailable,
    nodePool,
    nodeClass,
    warnings,
    restart: () => makeProvider(new UnavailableOfferings({ clock })),
    nodeClaim: (name, requirements = [], requests = { cpu: '100m', memory: '128Mi' }) => ({
      metadata: { name, uid: `00000000-0000-4000-8000-${String(++uid).padStart(12, '0')}`, labels: { 'karpenter.sh/nodepool': 'default' } },
      spec: { nodeClassRef: NodeClassRef, requirements, resources: { requests } },
    }),
    settle: (ms = 60_000) => clock.step(ms),
    close: async () => {
      await emulator.close();
      https.globalAgent.options.ca = previousCa;
    },
  };
}

/** Nodes of the cluster that run or boot (not failed, not being deleted). */
export function liveNodes(emulator: OvhcloudEmulator): ReturnType<OvhcloudEmulator['state']>['instances'] {
  return emulator.state().instances.filter((i) => i.state === 'READY' || i.state === 'INSTALLING');
}
