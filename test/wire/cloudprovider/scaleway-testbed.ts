/**
 * The Scaleway provider wired to the loopback emulator through the real SDK: one FakeClock drives both,
 * NodeClasses and Secrets are plain maps. Shared by the wire tests and the contract suite.
 */
import type { ScalewayNodeClass } from '../../../src/apis/v1alpha1/scaleway-nodeclass.js';
import { loadCatalog } from '../../../src/catalog/index.js';
import { NodeClassNotReadyError } from '../../../src/cloudprovider/errors.js';
import {
  AnnotationCreateAttempted,
  createScalewayClient,
  createScalewayCloudProvider,
  type ScalewayApi,
  type ScalewayCloudProvider,
} from '../../../src/cloudprovider/scaleway/index.js';
import type {
  CloudProviderNodeClaim,
  CloudProviderNodePool,
  CloudProviderRequirement,
  NodeClassResolver,
  SecretReference,
} from '../../../src/cloudprovider/types.js';
import { UnavailableOfferings } from '../../../src/cloudprovider/unavailable-offerings.js';
import {
  startScalewayEmulator,
  type ScalewayEmulator,
  type ScalewayEmulatorOptions,
} from '../../../src/testbed/emulators/scaleway/index.js';
import type { BackoffPolicy } from '../../../src/util/backoff.js';
import { FakeClock } from '../../../src/util/clock.js';

export const ClusterName = 'test-cluster';
export const NodeClassRef = { group: 'karpenter.scaleway.sh', kind: 'ScalewayNodeClass', name: 'default' };
export const FastRetry: BackoffPolicy = { baseDelayMs: 0, maxDelayMs: 0, maxAttempts: 3 };

export class MapResolver implements NodeClassResolver<ScalewayNodeClass> {
  readonly nodeClasses = new Map<string, ScalewayNodeClass>();
  readonly secrets = new Map<string, Record<string, string>>(); // "<namespace>/<name>" -> data

  async getNodeClass(name: string): Promise<ScalewayNodeClass> {
    const found = this.nodeClasses.get(name);
    if (!found) throw new NodeClassNotReadyError(`ScalewayNodeClass "${name}" not found`);
    return found;
  }

  async getSecretData(ref: SecretReference): Promise<Readonly<Record<string, string>>> {
    const found = this.secrets.get(`${ref.namespace}/${ref.name}`);
    if (!found) throw new NodeClassNotReadyError(`Secret ${ref.namespace}/${ref.name} not found`);
    return found;
  }
}

/** A create attempt the provider recorded on a NodeClaim, and how many createServer calls preceded it. */
export interface CreateAttempt {
  name: string;
  at: number;
  createCallsBefore: number;
}

export interface Testbed {
  emulator: ScalewayEmulator;
  createAttempts: CreateAttempt[];
  clock: FakeClock;
  api: ScalewayApi;
  provider: ScalewayCloudProvider;
  /** A new provider on the same cloud, with nothing in memory: what a restarted process builds. */
  restart(): ScalewayCloudProvider;
  resolver: MapResolver;
  unavailable: UnavailableOfferings;
  nodePool: CloudProviderNodePool;
  nodeClass: ScalewayNodeClass;
  nodeClaim(name: string, requirements?: CloudProviderRequirement[], requests?: Record<string, string>): CloudProviderNodeClaim;
  /** A new provider on the same emulator and settings, as a restarted operator builds (nothing remembered). */
  restartedProvider(retryPolicy?: BackoffPolicy): ScalewayCloudProvider;
  /** Moves time past boots and terminations. */
  settle(): void;
  close(): Promise<void>;
}

export interface TestbedOptions {
  /** Shared with another test bed (the simulated cluster), so server ages and NodeClaim ages agree. */
  clock?: FakeClock;
  emulator?: ScalewayEmulatorOptions;
  listPageSize?: number;
  retryPolicy?: BackoffPolicy;
  /** Wraps the SDK's fetch (HTTP-level fault injection). */
  wrapFetch?: (base: typeof fetch) => typeof fetch;
  /** Gives the provider an API factory for NodeClasses with their own credentials. */
  perNodeClassCredentials?: boolean;
}

export async function startTestbed(options: TestbedOptions = {}): Promise<Testbed> {
  const clock = options.clock ?? new FakeClock();
  const emulator = await startScalewayEmulator({ clock, ...options.emulator });
  const { accessKey, secretKey, projectId } = emulator.credentials;
  const api = createScalewayClient({
    apiUrl: emulator.url,
    accessKey,
    secretKey,
    projectId,
    defaultZone: 'fr-par-1',
    ...(options.wrapFetch ? { fetch: options.wrapFetch(globalThis.fetch) } : {}),
  });
  const resolver = new MapResolver();
  const nodeClass: ScalewayNodeClass = {
    metadata: { name: 'default' },
    spec: {
      image: 'ubuntu_jammy',
      projectId,
      zones: ['fr-par-1', 'fr-par-2', 'fr-par-3'],
      join: { apiServerEndpoint: 'https://10.0.0.1:6443', tokenSecretRef: { name: 'join', namespace: 'kube-system', key: 'token' } },
      tags: { team: 'ml' },
    },
  };
  resolver.nodeClasses.set('default', nodeClass);
  resolver.secrets.set('kube-system/join', { token: 'abcdef.0123456789abcdef' });
  const unavailable = new UnavailableOfferings({ clock });
  const createAttempts: CreateAttempt[] = [];
  const makeProvider = (offerings: UnavailableOfferings, retryPolicy?: BackoffPolicy): ScalewayCloudProvider =>
    createScalewayCloudProvider({
      clusterName: ClusterName,
      region: 'fr-par',
      catalog: loadCatalog('scaleway'),
      api,
      nodeClasses: resolver,
      unavailableOfferings: offerings,
      clock,
      random: () => 0.5,
      retryPolicy: retryPolicy ?? options.retryPolicy ?? FastRetry,
      ...(options.perNodeClassCredentials
        ? {
            apiFactory: (c: { accessKey: string; secretKey: string; projectId: string }) =>
              createScalewayClient({ apiUrl: emulator.url, ...c, defaultZone: 'fr-par-1' }),
          }
        : {}),
      ...(options.listPageSize ? { listPageSize: options.listPageSize } : {}),
      // As the lifecycle's patch does: the annotation lands on the NodeClaim the next create() is given.
      recordCreateAttempt: async (claim, at) => {
        createAttempts.push({
          name: claim.metadata?.name ?? '',
          at,
          createCallsBefore: emulator.calls.records.filter((r) => r.action === 'createServer').length,
        });
        if (claim.metadata)
          claim.metadata.annotations = { ...claim.metadata.annotations, [AnnotationCreateAttempted]: new Date(at).toISOString() };
      },
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
    createAttempts,
    restartedProvider: (retryPolicy?: BackoffPolicy) => makeProvider(unavailable, retryPolicy),
    restart: () => makeProvider(new UnavailableOfferings({ clock })),
    nodeClaim: (name, requirements = [], requests = { cpu: '100m', memory: '128Mi' }) => ({
      metadata: { name, uid: `00000000-0000-4000-8000-${String(++uid).padStart(12, '0')}`, labels: { 'karpenter.sh/nodepool': 'default' } },
      spec: { nodeClassRef: NodeClassRef, requirements, resources: { requests } },
    }),
    settle: () => clock.step(60_000),
    close: () => emulator.close(),
  };
}

/** Servers of the test cluster that exist and are not being terminated. */
export function liveServers(emulator: ScalewayEmulator): ReturnType<ScalewayEmulator['state']>['instances'] {
  return emulator.state().instances.filter((i) => i.tags.includes(`karpenter-eu.io/cluster=${ClusterName}`) && i.state !== 'stopping');
}
