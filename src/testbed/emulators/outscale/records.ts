/** The emulated cloud's state records (internal; the wire shapes are built from them in `wire.ts`). */
import type { PerformanceName } from './vm-types.js';

export type VmState = 'pending' | 'running' | 'stopping' | 'stopped' | 'shutting-down' | 'terminated' | 'quarantine';
export type FlexibleGpuState = 'allocated' | 'attaching' | 'attached' | 'detaching';
export type ResourceType = 'vm' | 'subnet' | 'security-group' | 'image' | 'flexible-gpu' | 'volume';

export interface BlockDeviceRecord {
  deviceName: string;
  volumeId: string;
  sizeGiB: number;
  volumeType: string;
  deleteOnVmDeletion: boolean;
}

export interface VmRecord {
  id: string;
  vmType: string;
  vcores: number;
  ramGiB: number;
  generation?: number;
  performance: PerformanceName;
  subregion: string;
  subnetId?: string;
  netId?: string;
  imageId: string;
  keypairName?: string;
  securityGroups: { id: string; name: string }[];
  /** Base64, as sent. */
  userData?: string;
  clientToken?: string;
  reservationId: string;
  launchNumber: number;
  createdAt: number;
  /** Reads do not see the VM before this time (eventual consistency). */
  visibleAt: number;
  privateIp: string;
  privateDnsName: string;
  blockDevices: BlockDeviceRecord[];
  deletionProtection: boolean;
  state: VmState;
  stateSince: number;
  /** Where a `pending` VM is heading: `running`, or `stopped` when created with BootOnCreation=false. */
  pendingTarget: 'running' | 'stopped';
  stateReason?: string;
}

export interface FlexibleGpuRecord {
  id: string;
  modelName: string;
  subregion: string;
  generation: string;
  state: FlexibleGpuState;
  vmId?: string;
  deleteOnVmDeletion: boolean;
  createdAt: number;
}

export interface SubnetRecord {
  id: string;
  netId: string;
  subregion: string;
  ipRange: string;
  /** Third octet of the addresses handed out in this subnet. */
  octet: number;
  nextHost: number;
}

export interface SecurityGroupRecord {
  id: string;
  name: string;
  description: string;
  netId: string;
}

export interface ImageRecord {
  id: string;
  name: string;
  architecture: string;
  description: string;
}

export interface LifecycleTimings {
  /** pending → running (or → stopped when BootOnCreation=false). */
  bootMs: number;
  /** stopping → stopped. */
  stopMs: number;
  /** shutting-down → terminated. */
  shutdownMs: number;
  /** How long a terminated VM stays visible in ReadVms. */
  terminatedRetentionMs: number;
}

export const DEFAULT_TIMINGS: LifecycleTimings = {
  bootMs: 15_000,
  stopMs: 10_000,
  shutdownMs: 10_000,
  terminatedRetentionMs: 60 * 60_000,
};
