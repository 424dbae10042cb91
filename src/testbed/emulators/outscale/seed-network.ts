/**
 * The small network every emulated account starts with: one Net, a subnet per subregion, security groups
 * `default` and `k8s-worker`, two images (Ubuntu, Talos) and a keypair. Ids are seeded, so tests read them
 * from `emulator.network` rather than hard-coding them.
 */
import type { OutscaleStore } from './store.js';

export interface SeededNetwork {
  netId: string;
  /** Subregion → subnet id. */
  subnets: Record<string, string>;
  securityGroups: { default: string; worker: string };
  images: { ubuntu: string; talos: string };
  keypairName: string;
}

export function seedNetwork(store: OutscaleStore, subregions: string[]): SeededNetwork {
  const netId = store.ids.next('vpc');
  const subnets: Record<string, string> = {};
  subregions.forEach((subregion, i) => {
    const id = store.ids.next('subnet');
    store.subnets.set(id, { id, netId, subregion, ipRange: `10.0.${i + 1}.0/24`, octet: i + 1, nextHost: 0 });
    store.register(id, 'subnet');
    subnets[subregion] = id;
  });
  const securityGroups = { default: store.ids.next('sg'), worker: store.ids.next('sg') };
  store.securityGroups.set(securityGroups.default, {
    id: securityGroups.default,
    name: 'default',
    description: 'default security group',
    netId,
  });
  store.securityGroups.set(securityGroups.worker, {
    id: securityGroups.worker,
    name: 'k8s-worker',
    description: 'kubernetes worker nodes',
    netId,
  });
  const images = { ubuntu: store.ids.next('ami'), talos: store.ids.next('ami') };
  store.images.set(images.ubuntu, {
    id: images.ubuntu,
    name: 'Ubuntu-22.04-2026.01.01-0',
    architecture: 'x86_64',
    description: 'Ubuntu 22.04 LTS',
  });
  store.images.set(images.talos, {
    id: images.talos,
    name: 'talos-v1.9.0-amd64',
    architecture: 'x86_64',
    description: 'Talos Linux v1.9.0',
  });
  for (const id of [securityGroups.default, securityGroups.worker]) store.register(id, 'security-group');
  for (const id of [images.ubuntu, images.talos]) store.register(id, 'image');
  const keypairName = 'karpenter-eu';
  store.keypairs.add(keypairName);
  return { netId, subnets, securityGroups, images, keypairName };
}
