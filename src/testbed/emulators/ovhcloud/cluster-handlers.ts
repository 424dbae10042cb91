/** Cluster, flavor and capability reads. */
import { badRequest } from './api-error.js';
import { isFlavorOffered, type EmulatorContext, type Handler } from './context.js';
import type { Reply } from './http-io.js';
import { clusterOf, projectExists } from './scope.js';
import { clusterToWire, flavorToWire } from './wire.js';

function isAvailable(emu: EmulatorContext, flavor: string, region: string): boolean {
  const off = emu.settings.unavailableFlavors;
  return !off.has(flavor) && !off.has(`${flavor}@${region}`);
}

function flavorsOfRegion(emu: EmulatorContext, region: string): Reply {
  const flavors = [...emu.flavorsByName.values()].filter((f) => f.regions.includes(region));
  return { status: 200, json: flavors.map((f) => flavorToWire(f, isAvailable(emu, f.name, region))) };
}

/** `GET /cloud/project/{serviceName}/kube`: the ids of the project's MKS clusters. */
export const listClusters: Handler = (emu, req) => {
  projectExists(emu, req);
  const serviceName = req.params.serviceName ?? '';
  return { status: 200, json: [...emu.store.clusters.values()].filter((c) => c.serviceName === serviceName).map((c) => c.id) };
};

export const getCluster: Handler = (emu, req) => ({ status: 200, json: clusterToWire(clusterOf(emu, req)) });

export const listClusterFlavors: Handler = (emu, req) => {
  const cluster = clusterOf(emu, req);
  const flavors = [...emu.flavorsByName.values()].filter((f) => isFlavorOffered(f, cluster));
  return { status: 200, json: flavors.map((f) => flavorToWire(f, isAvailable(emu, f.name, cluster.region))) };
};

export const listCapabilityFlavors: Handler = (emu, req) => {
  projectExists(emu, req);
  const region = req.query.get('region');
  if (region === null) {
    const all = [...emu.flavorsByName.values()];
    return {
      status: 200,
      json: all.map((f) =>
        flavorToWire(
          f,
          f.regions.some((r) => isAvailable(emu, f.name, r)),
        ),
      ),
    };
  }
  const known = emu.catalog.regions.map((r) => r.name);
  if (!known.includes(region))
    throw badRequest(`[InvalidDataError] region "${region}" is not a Managed Kubernetes region; accepted: ${known.join(', ')}`);
  return flavorsOfRegion(emu, region);
};

export const listCapabilityRegions: Handler = (emu, req) => {
  projectExists(emu, req);
  return { status: 200, json: emu.catalog.regions.map((r) => r.name) };
};
