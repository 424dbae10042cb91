/**
 * The Outscale CloudProvider on the loopback emulator, for the wire tests and the contract suite: one
 * FakeClock shared by the provider (SigV4 dates, backoff, GPU polling) and the emulator (VM lifecycle).
 * `failNextPages` makes ReadVms pages after the first fail at the HTTP level — a partial read.
 */
import type { OutscaleNodeClass } from '../../../src/apis/v1alpha1/outscale-nodeclass.js';
import { loadCatalog } from '../../../src/catalog/index.js';
import { NodeClassNotReadyError } from '../../../src/cloudprovider/errors.js';
import { createOutscaleCloudProvider, type OutscaleCloudProvider } from '../../../src/cloudprovider/outscale/index.js';
import type {
  CloudProviderNodeClaim,
  CloudProviderNodePool,
  CloudProviderRequirement,
  NodeClassResolver,
} from '../../../src/cloudprovider/types.js';
import {
  startOutscaleEmulator,
  type OutscaleEmulator,
  type OutscaleEmulatorOptions,
} from '../../../src/testbed/emulators/outscale/index.js';
import type { BackoffPolicy } from '../../../src/util/backoff.js';
import { launchShapeOf } from '../../../src/cloudprovider/outscale/instancetypes.js';
import { autoAdvancing } from './ovhcloud-testbed.js';
import { FakeClock } from '../../../src/util/clock.js';

export const ClusterName = 'wire-cluster';
export const NoWaitRetries: BackoffPolicy = { baseDelayMs: 0, maxDelayMs: 0, maxAttempts: 3 };

export interface OutscaleTestbed {
  emulator: OutscaleEmulator;
  provider: OutscaleCloudProvider;
  /** A new provider on the same cloud, with nothing in memory: what a restarted process builds. */
  restart(): OutscaleCloudProvider;
  clock: FakeClock;
  nodeClass: OutscaleNodeClass;
  nodePool: CloudProviderNodePool;
  /** While true, every ReadVms request that carries a NextPageToken fails with a 503. */
  failNextPages: { on: boolean };
  /** Every request body the provider sent, by action. */
  sent: { action: string; body: Record<string, unknown> }[];
  nodeClaim(name: string, requirements?: CloudProviderRequirement[], requests?: Record<string, string>): CloudProviderNodeClaim;
  /** Lets the emulator's asynchronous work finish (boot, shutdown). */
  settle(ms?: number): void;
  liveVms(): ReturnType<OutscaleEmulator['state']>['instances'];
  close(): Promise<void>;
}

export interface TestbedOptions {
  /** Shared with another test bed (the simulated cluster), so VM ages and NodeClaim ages agree. */
  clock?: FakeClock;
  emulator?: Omit<OutscaleEmulatorOptions, 'clock'>;
  pageSize?: number;
  /** The client's per-request timeout (real time). */
  timeoutMs?: number;
  retryPolicy?: BackoffPolicy;
  nodeClass?: (base: OutscaleNodeClass) => OutscaleNodeClass;
  /** The provider's sleeps move the fake clock (GPU launches wait for their VM to stop without a driver). */
  autoAdvance?: boolean;
  secrets?: Record<string, Record<string, string>>;
}

function resolverOf(
  nodeClasses: Map<string, OutscaleNodeClass>,
  secrets: Record<string, Record<string, string>>,
): NodeClassResolver<OutscaleNodeClass> {
  return {
    getNodeClass: async (name) => {
      const found = nodeClasses.get(name);
      if (!found) throw new NodeClassNotReadyError(`OutscaleNodeClass ${name} not found`);
      return found;
    },
    getSecretData: async (ref) => {
      const found = secrets[`${ref.namespace}/${ref.name}`];
      if (!found) throw new NodeClassNotReadyError(`secret ${ref.namespace}/${ref.name} not found`);
      return found;
    },
  };
}

export async function startOutscaleTestbed(options: TestbedOptions = {}): Promise<OutscaleTestbed> {
  const clock = options.clock ?? new FakeClock();
  const emulator = await startOutscaleEmulator({ ...options.emulator, clock });
  const base: OutscaleNodeClass = {
    metadata: { name: 'default' },
    spec: {
      region: emulator.region,
      clusterId: 'cluster-1',
      imageId: emulator.network.images.ubuntu,
      securityGroupIds: [emulator.network.securityGroups.worker],
      subnets: Object.entries(emulator.network.subnets).map(([subregion, subnetId]) => ({ subregion, subnetId })),
      keypairName: emulator.network.keypairName,
      tags: { team: 'platform' },
      userData: { format: 'CloudInit', content: '#cloud-config\nruncmd: [kubeadm join]\n' },
    },
  };
  const nodeClass = options.nodeClass ? options.nodeClass(base) : base;
  const nodeClasses = new Map([[nodeClass.metadata?.name ?? 'default', nodeClass]]);
  const failNextPages = { on: false };
  const sent: OutscaleTestbed['sent'] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const action = String(input).split('/').pop() ?? '';
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    sent.push({ action, body });
    if (failNextPages.on && action === 'ReadVms' && typeof body.NextPageToken === 'string') {
      return new Response(
        JSON.stringify({
          Errors: [{ Code: '2000', Type: 'InternalError', Details: 'injected page failure' }],
          ResponseContext: { RequestId: 'x' },
        }),
        { status: 503 },
      );
    }
    return fetch(input, init);
  };
  const makeProvider = (): OutscaleCloudProvider =>
    createOutscaleCloudProvider({
      client: {
        endpoint: emulator.url,
        region: emulator.region,
        ...emulator.credentials,
        fetch: recordingFetch,
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      },
      clusterName: ClusterName,
      nodeClasses: resolverOf(nodeClasses, options.secrets ?? {}),
      catalog: loadCatalog('outscale'),
      clock: options.autoAdvance ? autoAdvancing(clock) : clock,
      random: () => 0.5,
      retryPolicy: options.retryPolicy ?? NoWaitRetries,
      gpuPollIntervalMs: 1_000,
      gpuStopTimeoutMs: 60_000,
      ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
    });
  const provider = makeProvider();
  const nodeClassRef = { group: 'karpenter.outscale.sh', kind: 'OutscaleNodeClass', name: nodeClass.metadata?.name ?? 'default' };
  const nodePool: CloudProviderNodePool = {
    metadata: { name: 'default' },
    spec: { template: { spec: { nodeClassRef, requirements: [] } } },
  };
  let uid = 0;
  return {
    emulator,
    provider,
    restart: makeProvider,
    clock,
    nodeClass,
    nodePool,
    failNextPages,
    sent,
    nodeClaim: (name, requirements = [], requests = { cpu: '100m', memory: '128Mi' }) => ({
      metadata: { name, uid: `00000000-0000-4000-8000-${String(++uid).padStart(12, '0')}`, labels: { 'karpenter.sh/nodepool': 'default' } },
      spec: { nodeClassRef, requirements, resources: { requests } },
    }),
    settle: (ms = 60_000) => clock.step(ms),
    liveVms: () => emulator.state().instances.filter((i) => i.state !== 'terminated' && i.state !== 'shutting-down'),
    close: () => emulator.close(),
  };
}

/**
 * What the VM still lacks to join: running (or booting), user data, the cluster's tags, and every
 * flexible GPU its instance type bundles, linked — and any GPU of the account linked to no VM (billed for nothing).
 */
export function unfinishedVm(bed: OutscaleTestbed, providerID: string): string[] {
  const state = bed.emulator.state();
  const vm = state.instances.find((i) => i.providerID === providerID);
  if (!vm) return ['no such vm'];
  const flavor = loadCatalog('outscale').flavors.find((f) => f.name === vm.tags['karpenter-eu.io/instance-type']);
  const wanted = flavor ? (launchShapeOf(flavor).flexibleGpu?.count ?? 0) : 0;
  const linked = state.flexibleGpus.filter((g) => g.vmId === vm.id).length;
  const leftOver = state.flexibleGpus.filter((g) => g.vmId === undefined).length;
  return [
    ...(vm.state === 'running' || vm.state === 'pending' ? [] : [vm.state]),
    ...(vm.userData ? [] : ['no user data']),
    ...(vm.tags['karpenter.sh/managed-by'] === ClusterName ? [] : ['not tagged for the cluster']),
    ...(linked === wanted ? [] : [`${linked} of ${wanted} gpus`]),
    ...(leftOver === 0 ? [] : [`${leftOver} gpus allocated and linked to no vm`]),
  ];
}
