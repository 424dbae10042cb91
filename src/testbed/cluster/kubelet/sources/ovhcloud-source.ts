/**
 * OVHcloud MKS pool nodes in status READY as kubelet instances. MKS registers the Node itself: its name is the
 * MKS node name, its labels and taints come from the pool template (MKS takes no user data), and its
 * providerID is `openstack:///<instanceId>` once the OpenStack instance exists.
 */
import { loadCatalog, type CatalogFile } from '../../../../catalog/index.js';
import { TaintEffects, type TaintEffect } from '../../../../domain/requirements/index.js';
import { type OvhcloudEmulator } from '../../../emulators/ovhcloud/index.js';
import { type CloudInstance, type CloudInstanceSource } from '../instance-source.js';
import { flavorGpu, flavorIndex, flavorResources } from './flavor-capacity.js';

export function ovhcloudInstanceSource(
  emulator: Pick<OvhcloudEmulator, 'state'>,
  catalog: CatalogFile = loadCatalog('ovhcloud'),
): CloudInstanceSource {
  const flavors = flavorIndex(catalog);
  return {
    cloud: 'ovhcloud',
    running(): CloudInstance[] {
      return emulator
        .state()
        .instances.filter((n) => n.state === 'READY' && n.providerID !== undefined)
        .map((n) => {
          const flavor = flavors.get(n.instanceType);
          return {
            cloud: 'ovhcloud',
            nodeName: n.name,
            providerID: n.providerID!,
            instanceType: n.instanceType,
            region: n.region,
            zone: n.zone,
            arch: flavor?.arch ?? 'amd64',
            ...flavorGpu(flavor),
            ...(flavor ? flavorResources(flavor, 'ovhcloud') : { capacity: {} }),
            labels: { ...n.labels },
            taints: n.taints
              .filter((t) => (TaintEffects as readonly string[]).includes(t.effect))
              .map((t) => ({ key: t.key, ...(t.value ? { value: t.value } : {}), effect: t.effect as TaintEffect })),
            bootedAt: n.createdAt,
          };
        });
    },
  };
}
