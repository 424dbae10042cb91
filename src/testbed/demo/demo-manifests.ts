/**
 * The example manifests (`manifests/examples/`) as the demo applies them: unchanged except where the
 * loopback world differs (the Outscale emulator's seeded subnet/security group/image ids) and shorter
 * `consolidateAfter` windows so the scenario fits in a few minutes.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import type { OutscaleEmulator } from '../emulators/outscale/index.js';
import type { DemoCloud, DemoEnvironment } from './environment.js';
import { projectFile, readManifest } from './install.js';

export const DemoConsolidateAfter = '5s';

type Obj = KubernetesObject & { spec?: Record<string, unknown> };

export function exampleObjects(path: string): Obj[] {
  return readManifest(projectFile(`manifests/examples/${path}`)) as Obj[];
}

function shortenConsolidation(pool: Obj): Obj {
  const spec = pool.spec as { disruption?: { consolidateAfter?: string } } | undefined;
  if (spec?.disruption) spec.disruption.consolidateAfter = DemoConsolidateAfter;
  return pool;
}

function outscaleNodeClass(nodeClass: Obj, emulator: OutscaleEmulator): Obj {
  const network = emulator.network;
  const spec = nodeClass.spec as Record<string, unknown>;
  spec.region = emulator.region;
  spec.subnets = Object.entries(network.subnets).map(([subregion, subnetId]) => ({ subregion, subnetId }));
  spec.securityGroupIds = [network.securityGroups.worker];
  spec.imageId = network.images.ubuntu;
  spec.keypairName = network.keypairName;
  return nodeClass;
}

export function nodeClassesFor(cloud: DemoCloud, env: DemoEnvironment): Obj[] {
  const objects = exampleObjects(`${cloud}/nodeclass.yaml`);
  return cloud === 'outscale' && env.outscale ? objects.map((o) => outscaleNodeClass(o, env.outscale as OutscaleEmulator)) : objects;
}

export function nodePoolsFor(cloud: DemoCloud): Obj[] {
  return exampleObjects(`${cloud}/nodepools.yaml`).map(shortenConsolidation);
}

/**
 * The NodeClass change that makes its nodes drift. Scaleway and Outscale: another OS image than the one the
 * nodes run. OVH: MKS chooses the node image itself, so the change is a pool setting MKS fixes at pool
 * creation (anti-affinity), which only new pools can carry.
 */
export function driftPatchFor(
  cloud: DemoCloud,
  env: DemoEnvironment,
): { name: string; apiVersion: string; kind: string; spec: Record<string, unknown> } {
  if (cloud === 'ovhcloud')
    return { apiVersion: 'karpenter.ovhcloud.sh/v1alpha1', kind: 'OVHNodeClass', name: 'default', spec: { antiAffinity: true } };
  if (cloud === 'outscale') {
    return {
      apiVersion: 'karpenter.outscale.sh/v1alpha1',
      kind: 'OutscaleNodeClass',
      name: 'default',
      spec: { imageId: env.outscale?.network.images.talos },
    };
  }
  return { apiVersion: 'karpenter.scaleway.sh/v1alpha1', kind: 'ScalewayNodeClass', name: 'default', spec: { image: 'ubuntu_noble' } };
}

/** The cloud whose NodeClass the drift step changes: an image change where one is selected, else OVH's pool setting. */
export function driftCloudOf(clouds: readonly DemoCloud[]): DemoCloud | undefined {
  const preference: readonly DemoCloud[] = ['scaleway', 'outscale', 'ovhcloud'];
  return preference.find((c) => clouds.includes(c));
}
