/** Outscale VMs in state `running` as kubelet instances: cloud-provider-osc names the Node by private DNS name. */
import { loadCatalog, type CatalogFile } from '../../../../catalog/index.js';
import { type OutscaleEmulator } from '../../../emulators/outscale/index.js';
import { type CloudInstance, type CloudInstanceSource } from '../instance-source.js';
import { nodeLabelsFromUserData, taintsFromUserData } from '../user-data.js';
import { ResourceNvidiaGPU } from '../../../../apis/v1/labels.js';
import { flavorGpu, flavorIndex, flavorResources, kubeletResources } from './flavor-capacity.js';

export function outscaleInstanceSource(
  emulator: Pick<OutscaleEmulator, 'state' | 'region'>,
  catalog: CatalogFile = loadCatalog('outscale'),
): CloudInstanceSource {
  const flavors = flavorIndex(catalog);
  return {
    cloud: 'outscale',
    running(): CloudInstance[] {
      const state = emulator.state();
      return state.instances
        .filter((vm) => vm.state === 'running')
        .map((vm) => {
          const flavor = flavors.get(vm.instanceType);
          // tina VM types are parametric (tinav6.c4r8p2): the VM's own vcores/RAM are the truth.
          const { capacity, allocatable } = flavor
            ? flavorResources(flavor, 'outscale')
            : kubeletResources({ vcpus: vm.vcores, memoryMiB: vm.ramGiB * 1024 }, 'outscale');
          // Flexible GPUs attached to the VM are what the NVIDIA device plugin reports.
          const gpus = state.flexibleGpus.filter((g) => g.vmId === vm.id && g.state === 'attached').length;
          if (gpus > 0) capacity[ResourceNvidiaGPU] = allocatable[ResourceNvidiaGPU] = String(gpus);
          return {
            cloud: 'outscale',
            nodeName: vm.privateDnsName,
            providerID: vm.providerID,
            instanceType: vm.instanceType,
            region: emulator.region,
            zone: vm.zone,
            arch: flavor?.arch ?? 'amd64',
            ...flavorGpu(flavor),
            capacity,
            allocatable,
            labels: nodeLabelsFromUserData(vm.userData),
            taints: taintsFromUserData(vm.userData),
            bootedAt: vm.createdAt,
            internalIP: vm.privateIp,
          };
        });
    },
  };
}
