/**
 * The emulator's in-memory model of Scaleway resources. Plain data; the wire shapes are produced by
 * `wire.ts`. Times are epoch milliseconds from the injected clock.
 */

export type ServerState = 'stopped' | 'starting' | 'running' | 'stopping' | 'stopped in place' | 'locked';
export type ServerAction = 'poweron' | 'poweroff' | 'stop_in_place' | 'reboot' | 'terminate' | 'backup' | 'enable_routed_ip';
export type LocalVolumeType = 'l_ssd' | 'scratch';
export type Availability = 'available' | 'scarce' | 'shortage';

/** An action in progress; the server's visible state is derived from it and the clock on every read. */
export interface Transition {
  action: 'poweron' | 'poweroff' | 'reboot' | 'terminate';
  startedAt: number;
  completesAt: number;
  taskId: string;
}

export interface AttachedVolume {
  /** Index in the server's `volumes` map ("0" is the root volume). */
  index: string;
  id: string;
  name: string;
  volumeType: LocalVolumeType | 'sbs_volume';
  sizeBytes: number;
  boot: boolean;
  createdAt: number;
}

export interface PrivateNic {
  id: string;
  privateNetworkId: string;
  macAddress: string;
  createdAt: number;
}

export interface ImageRef {
  id: string;
  name: string;
  /** The label the caller used (`ubuntu_jammy`), when it was a label. */
  label?: string;
}

export interface ServerRecord {
  id: string;
  name: string;
  zone: string;
  project: string;
  organization: string;
  commercialType: string;
  arch: 'x86_64' | 'arm64';
  image: ImageRef;
  bootType: 'local' | 'bootscript' | 'rescue';
  tags: string[];
  dynamicIpRequired: boolean;
  protected: boolean;
  securityGroup: { id: string; name: string };
  placementGroupId?: string;
  volumes: AttachedVolume[];
  privateNics: PrivateNic[];
  userData: Map<string, string>;
  macAddress: string;
  privateIp?: string;
  publicIpAddress?: string;
  createdAt: number;
  modifiedAt: number;
  /** Reads before this instant answer as if the server did not exist yet (eventual consistency). */
  visibleAt: number;
  state: ServerState;
  stateDetail: string;
  transition?: Transition;
}

export interface BlockVolumeRecord {
  id: string;
  name: string;
  zone: string;
  projectId: string;
  sizeBytes: number;
  /** Block API volume type (`sbs_5k`, `sbs_15k`). */
  type: string;
  tags: string[];
  createdAt: number;
  updatedAt: number;
  attachedTo?: { serverId: string; since: number; referenceId: string };
  lastDetachedAt?: number;
}

export interface TaskRecord {
  id: string;
  description: string;
  serverId: string;
  zone: string;
  startedAt: number;
  completesAt: number;
}
