/**
 * Reads one world for the invariants, synchronously: the emulators' own state and the simulated API server's
 * store, so a snapshot taken as a request arrives is exactly what the cloud and the cluster held at that instant.
 */
import type { ApiServer } from '../../../src/testbed/cluster/apiserver/index.js';
import type { OutscaleEmulator } from '../../../src/testbed/emulators/outscale/index.js';
import type { OvhcloudEmulator } from '../../../src/testbed/emulators/ovhcloud/index.js';
import type { ScalewayEmulator } from '../../../src/testbed/emulators/scaleway/index.js';
import type {
  InstanceState,
  ObservedClaim,
  ObservedGpu,
  ObservedInstance,
  ObservedNode,
  ObservedPod,
  ObservedWorld,
} from './invariants.js';

export type ChaosCloud = 'ovhcloud' | 'scaleway' | 'outscale';

export interface CloudSide {
  instances: ObservedInstance[];
  gpus: ObservedGpu[];
}

const ClaimTag = 'karpenter.sh/nodeclaim';

function scalewayState(state: string, detail: string): InstanceState {
  if (detail.includes('terminat')) return 'deleting';
  if (state === 'running') return 'running';
  if (state === 'starting') return 'pending';
  return 'stopped';
}

export function scalewaySide(emulator: Pick<ScalewayEmulator, 'state'>): CloudSide {
  const instances = emulator.state().instances.map((s) => ({
    id: s.id,
    providerID: s.providerID,
    state: scalewayState(s.state, s.stateDetail),
    ...(claimOfTags(s.tags) ? { claimTag: claimOfTags(s.tags) as string } : {}),
    needsUserData: true,
    hasUserData: Boolean(s.userData),
    gpuIds: [],
  }));
  return { instances, gpus: [] };
}

function claimOfTags(tags: readonly string[]): string | undefined {
  return tags.find((t) => t.startsWith(`${ClaimTag}=`))?.slice(ClaimTag.length + 1);
}

function outscaleState(state: string): InstanceState {
  if (state === 'running') return 'running';
  if (state === 'pending') return 'pending';
  if (state === 'terminated') return 'gone';
  if (state === 'shutting-down') return 'deleting';
  return 'stopped';
}

export function outscaleSide(emulator: Pick<OutscaleEmulator, 'state'>): CloudSide {
  const state = emulator.state();
  const instances = state.instances.map((vm) => ({
    id: vm.id,
    providerID: vm.providerID,
    state: outscaleState(vm.state),
    ...(vm.tags[ClaimTag] ? { claimTag: vm.tags[ClaimTag] } : {}),
    needsUserData: true,
    hasUserData: Boolean(vm.userData),
    gpuIds: vm.flexibleGpuIds,
  }));
  const gpus = state.flexibleGpus.map((g) => ({
    id: g.id,
    ...(g.vmId ? { vmId: g.vmId } : {}),
    deleting: g.state === 'detaching' && g.deleteOnVmDeletion,
  }));
  return { instances, gpus };
}

function ovhState(status: string): InstanceState {
  if (status === 'READY') return 'running';
  if (status === 'INSTALLING') return 'pending';
  if (status === 'DELETING') return 'deleting';
  if (status === 'DELETED') return 'gone';
  return 'stopped';
}

export function ovhcloudSide(emulator: OvhcloudEmulator): CloudSide {
  const instances = emulator.state().instances.map((n) => ({
    id: n.id,
    ...(n.providerID ? { providerID: n.providerID } : {}),
    state: ovhState(n.state),
    // MKS nodes take no user data and carry no per-node tag: the claim is recorded in the pool template.
    needsUserData: false,
    hasUserData: false,
    gpuIds: [],
  }));
  return { instances, gpus: [] };
}

type Meta = { name: string; namespace?: string; deletionTimestamp?: string };
type Claim = { metadata: Meta; spec?: { resources?: { requests?: Record<string, string> } }; status?: { providerID?: string } };
type Node = { metadata: Meta; spec?: { providerID?: string }; status?: { conditions?: { type: string; status: string }[] } };
type Pod = { metadata: Meta; spec?: { nodeName?: string }; status?: { phase?: string } };

function objects<T>(apiServer: ApiServer, key: string): T[] {
  return [...apiServer.store.values(key)] as unknown as T[];
}

export function clusterSide(
  apiServer: ApiServer,
  cloud: ChaosCloud,
  podNamespace: string,
): Pick<ObservedWorld, 'claims' | 'nodes' | 'pods'> {
  const claims: ObservedClaim[] = objects<Claim>(apiServer, 'karpenter.sh/nodeclaims').map((c) => ({
    name: c.metadata.name,
    ...(c.status?.providerID ? { providerID: c.status.providerID } : {}),
    deleting: Boolean(c.metadata.deletionTimestamp),
    // Only Outscale attaches GPUs as separate resources; elsewhere the flavor carries them.
    wantsSeparateGpu: cloud === 'outscale' && c.spec?.resources?.requests?.['nvidia.com/gpu'] !== undefined,
  }));
  const nodes: ObservedNode[] = objects<Node>(apiServer, '/nodes').map((n) => ({
    name: n.metadata.name,
    ...(n.spec?.providerID ? { providerID: n.spec.providerID } : {}),
    ready: n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false,
  }));
  const pods: ObservedPod[] = objects<Pod>(apiServer, '/pods')
    .filter((p) => p.metadata.namespace === podNamespace && !p.metadata.deletionTimestamp)
    .map((p) => ({
      name: p.metadata.name,
      phase: p.status?.phase ?? 'Pending',
      ...(p.spec?.nodeName ? { nodeName: p.spec.nodeName } : {}),
    }));
  return { claims, nodes, pods };
}
