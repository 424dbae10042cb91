/** The plain snapshot tests and the kubelet simulator read: the cloud's own view of its VMs and fGPUs. */
import type { FlexibleGpuState, VmRecord, VmState } from './records.js';
import type { OutscaleStore } from './store.js';
import { providerIdOf } from './wire.js';

export interface OutscaleInstanceSnapshot {
  id: string;
  /** The `Name` tag, else the private DNS name (what the CCM falls back to). */
  name: string;
  instanceType: string;
  /** The subregion (`eu-west-2a`). */
  zone: string;
  state: VmState;
  tags: Record<string, string>;
  /** Decoded user data (cloud-init or Talos machine config). */
  userData?: string;
  createdAt: number;
  /** `aws:///<subregion>/<vmId>`, the providerID cloud-provider-osc sets on the Node. */
  providerID: string;
  privateIp: string;
  privateDnsName: string;
  imageId: string;
  subnetId?: string;
  securityGroupIds: string[];
  performance: string;
  vcores: number;
  ramGiB: number;
  clientToken?: string;
  flexibleGpuIds: string[];
  /** False while eventual consistency still hides the VM from ReadVms. */
  visible: boolean;
}

export interface OutscaleFlexibleGpuSnapshot {
  id: string;
  modelName: string;
  zone: string;
  state: FlexibleGpuState;
  vmId?: string;
  deleteOnVmDeletion: boolean;
}

export interface OutscaleEmulatorState {
  instances: OutscaleInstanceSnapshot[];
  flexibleGpus: OutscaleFlexibleGpuSnapshot[];
}

function instanceSnapshot(store: OutscaleStore, vm: VmRecord, now: number): OutscaleInstanceSnapshot {
  const tags = Object.fromEntries(store.tagsOf(vm.id));
  return {
    id: vm.id,
    name: tags.Name ?? vm.privateDnsName,
    instanceType: vm.vmType,
    zone: vm.subregion,
    state: vm.state,
    tags,
    userData: vm.userData ? Buffer.from(vm.userData, 'base64').toString('utf8') : undefined,
    createdAt: vm.createdAt,
    providerID: providerIdOf(vm),
    privateIp: vm.privateIp,
    privateDnsName: vm.privateDnsName,
    imageId: vm.imageId,
    subnetId: vm.subnetId,
    securityGroupIds: vm.securityGroups.map((g) => g.id),
    performance: vm.performance,
    vcores: vm.vcores,
    ramGiB: vm.ramGiB,
    clientToken: vm.clientToken,
    flexibleGpuIds: [...store.flexibleGpus.values()].filter((g) => g.vmId === vm.id).map((g) => g.id),
    visible: now >= vm.visibleAt,
  };
}

export function snapshotOf(store: OutscaleStore, now: number): OutscaleEmulatorState {
  store.settle(now);
  return {
    instances: [...store.vms.values()]
      .sort((a, b) => a.createdAt - b.createdAt || a.launchNumber - b.launchNumber)
      .map((vm) => instanceSnapshot(store, vm, now)),
    flexibleGpus: [...store.flexibleGpus.values()].map((g) => ({
      id: g.id,
      modelName: g.modelName,
      zone: g.subregion,
      state: g.state,
      vmId: g.vmId,
      deleteOnVmDeletion: g.deleteOnVmDeletion,
    })),
  };
}
