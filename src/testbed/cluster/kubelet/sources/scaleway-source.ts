/** Scaleway servers in state `running` as kubelet instances: Kapsule names the Node after the server. */
import { loadCatalog, type CatalogFile } from '../../../../catalog/index.js';
import { type ScalewayEmulator } from '../../../emulators/scaleway/index.js';
import { type CloudInstance, type CloudInstanceSource } from '../instance-source.js';
import { nodeLabelsFromUserData, taintsFromUserData } from '../user-data.js';
import { flavorGpu, flavorIndex, flavorResources } from './flavor-capacity.js';

/** `fr-par-1` → `fr-par`. */
export function scalewayRegionOf(zone: string): string {
  return zone.replace(/-\d+$/, '');
}

export function scalewayInstanceSource(
  emulator: Pick<ScalewayEmulator, 'state'>,
  catalog: CatalogFile = loadCatalog('scaleway'),
): CloudInstanceSource {
  const flavors = flavorIndex(catalog);
  return {
    cloud: 'scaleway',
    running(): CloudInstance[] {
      return emulator
        .state()
        .instances.filter((s) => s.state === 'running')
        .map((s) => {
          const flavor = flavors.get(s.instanceType);
          return {
            cloud: 'scaleway',
            nodeName: s.name,
            providerID: s.providerID,
            instanceType: s.instanceType,
            region: scalewayRegionOf(s.zone),
            zone: s.zone,
            arch: flavor?.arch ?? 'amd64',
            ...flavorGpu(flavor),
            ...(flavor ? flavorResources(flavor, 'scaleway') : { capacity: {} }),
            labels: nodeLabelsFromUserData(s.userData),
            taints: taintsFromUserData(s.userData),
            bootedAt: s.createdAt,
            ...(s.privateIp ? { internalIP: s.privateIp } : {}),
          };
        });
    },
  };
}
