/**
 * What the kubelet simulator needs from a cloud: the instances it runs, as the machine itself would know them
 * (its providerID, flavor, zone and capacity, and the kubelet flags its user data carries). Each emulator is
 * adapted to this shape; sources are polled, like a kubelet that only exists once its machine is up.
 */
import { type CloudName } from '../../../apis/v1/labels.js';
import { type GpuInfo } from '../../../domain/instancetypes/types.js';
import { type Taint } from '../../../domain/requirements/index.js';

export interface CloudInstance {
  cloud: CloudName;
  /** The Node name the cloud's kubelet/CCM would register. */
  nodeName: string;
  providerID: string;
  instanceType: string;
  region: string;
  zone: string;
  arch: 'amd64' | 'arm64';
  /** Quantities as strings (`4`, `16Gi`, `110`), as the kubelet reports them. */
  capacity: Record<string, string>;
  /** What the kubelet leaves to pods (its reservations off capacity); when absent, the simulator's `reserved` comes off. */
  allocatable?: Record<string, string>;
  /** From `--node-labels` in the user data. */
  labels: Record<string, string>;
  /** From `--register-with-taints` in the user data (startup taints included). */
  taints: Taint[];
  /** Epoch ms the machine started. */
  bootedAt: number;
  internalIP?: string;
  /** The GPUs the machine has, as its flavor's catalog entry states them: what its DRA driver publishes. */
  gpu?: GpuInfo;
}

export interface CloudInstanceSource {
  readonly cloud: CloudName;
  /** The instances that are running now (stopped, pending or terminated ones are not listed). */
  running(): CloudInstance[];
}
