/** The plain snapshot tests and the kubelet simulator read: the cloud's own view of its instances. */
import type { BlockVolumeRecord, ServerRecord, ServerState } from './records.js';
import type { ScalewayStore } from './store.js';
import { providerIdOf } from './wire.js';

export interface ScalewayInstanceSnapshot {
  id: string;
  name: string;
  /** The commercial type (`PRO2-S`, `L4-1-24G`). */
  instanceType: string;
  zone: string;
  state: ServerState;
  stateDetail: string;
  tags: string[];
  /** The `cloud-init` user data key, when set. */
  userData?: string;
  /** Every user data key and its content. */
  userDataByKey: Record<string, string>;
  createdAt: number;
  /** The providerID a Node for this server carries: `scaleway://instance/{zone}/{id}`. */
  providerID: string;
  project: string;
  image: string;
  publicIp?: string;
  privateIp?: string;
  privateNetworks: string[];
  volumeIds: string[];
  /** False while eventual consistency still hides the server from reads. */
  visible: boolean;
}

export interface ScalewayVolumeSnapshot {
  id: string;
  name: string;
  zone: string;
  sizeBytes: number;
  type: string;
  status: 'in_use' | 'available';
  attachedTo?: string;
}

export interface ScalewayEmulatorState {
  instances: ScalewayInstanceSnapshot[];
  volumes: ScalewayVolumeSnapshot[];
}

function instanceSnapshot(s: ServerRecord, now: number): ScalewayInstanceSnapshot {
  return {
    id: s.id,
    name: s.name,
    instanceType: s.commercialType,
    zone: s.zone,
    state: s.state,
    stateDetail: s.stateDetail,
    tags: [...s.tags],
    userData: s.userData.get('cloud-init'),
    userDataByKey: Object.fromEntries(s.userData),
    createdAt: s.createdAt,
    providerID: providerIdOf(s),
    project: s.project,
    image: s.image.label ?? s.image.id,
    publicIp: s.publicIpAddress,
    privateIp: s.privateIp,
    privateNetworks: s.privateNics.map((n) => n.privateNetworkId),
    volumeIds: s.volumes.map((v) => v.id),
    visible: now >= s.visibleAt,
  };
}

function volumeSnapshot(v: BlockVolumeRecord): ScalewayVolumeSnapshot {
  return {
    id: v.id,
    name: v.name,
    zone: v.zone,
    sizeBytes: v.sizeBytes,
    type: v.type,
    status: v.attachedTo ? 'in_use' : 'available',
    attachedTo: v.attachedTo?.serverId,
  };
}

export function snapshotOf(store: ScalewayStore, now: number): ScalewayEmulatorState {
  store.settle(now);
  return {
    instances: [...store.servers.values()].sort((a, b) => a.createdAt - b.createdAt).map((s) => instanceSnapshot(s, now)),
    volumes: [...store.blockVolumes.values()].map(volumeSnapshot),
  };
}
