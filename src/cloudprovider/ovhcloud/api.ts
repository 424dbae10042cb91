/**
 * The port of the OVHcloud provider: only the MKS and catalog calls it uses, in the API's own JSON shapes
 * (`cloud.kube.*`, camelCase as the API sends them). `client.ts` implements it over the OVH SDK (`@ovhcloud/node-ovh`); tests may
 * implement it with plain objects. Every method rejects with a core error class (see `errors.ts`).
 */

import type { ApiCallKinds } from '../types.js';

/** `cloud.kube.Cluster` (the fields read). */
export interface OvhCluster {
  id: string;
  name: string;
  /** `GRA11`, `EU-WEST-PAR`. */
  region: string;
  version: string;
  status: string;
}

/** `cloud.kube.Flavor` of `/capabilities/kube/flavors`. */
export interface OvhFlavor {
  name: string;
  category: string;
  state: 'available' | 'unavailable' | string;
  vCPUs: number;
  gpus: number;
  /** GB. */
  ram: number;
}

export interface OvhTaint {
  key: string;
  value: string;
  effect: 'NoExecute' | 'NoSchedule' | 'PreferNoSchedule' | string;
}

/** `cloud.kube.NodePoolTemplate`: when sent, all five inner fields are required. */
export interface OvhPoolTemplate {
  metadata: { labels: Record<string, string>; annotations: Record<string, string>; finalizers: string[] };
  spec: { taints: OvhTaint[]; unschedulable: boolean };
}

/** `cloud.kube.NodePool` (the fields read). */
export interface OvhNodePool {
  id: string;
  name: string;
  flavor: string;
  status: string;
  desiredNodes: number;
  minNodes: number;
  maxNodes: number;
  currentNodes: number;
  monthlyBilled: boolean;
  antiAffinity: boolean;
  availabilityZones: string[];
  template: OvhPoolTemplate;
  createdAt: string;
  updatedAt: string;
}

/** `cloud.kube.Node`. */
export interface OvhNode {
  id: string;
  nodePoolId: string;
  name: string;
  flavor: string;
  /** The OpenStack instance id; null until the instance exists (and forever on a failed launch). */
  instanceId: string | null;
  /** Not in every API version: the pool's zone is used when absent. */
  availabilityZone?: string | null;
  status: string;
  createdAt: string;
  deletedAt?: string | null;
}

/** `cloud.ProjectKubeNodePoolCreation`. */
export interface OvhPoolCreation {
  name: string;
  flavorName: string;
  desiredNodes: number;
  minNodes: number;
  maxNodes: number;
  autoscale: boolean;
  monthlyBilled: boolean;
  antiAffinity: boolean;
  availabilityZones: string[];
  template: OvhPoolTemplate;
}

/** `cloud.ProjectKubeNodePoolUpdate` (the fields sent). */
export interface OvhPoolUpdate {
  desiredNodes?: number;
  minNodes?: number;
  maxNodes?: number;
  template?: OvhPoolTemplate;
  /** Node ids, instance ids or `openstack:///<instanceId>` providerIDs to remove on downscale. */
  nodesToRemove?: string[];
}

/** One MKS cluster of one Public Cloud project. */
export interface OvhKubeTarget {
  serviceName: string;
  kubeId: string;
}

/** Hourly and monthly prices (EUR) of one flavor, from the public order catalog. */
export interface OvhFlavorPrice {
  hourly?: number;
  monthly?: number;
}

export interface OvhApi {
  /** The ids of the project's MKS clusters (`GET /cloud/project/{serviceName}/kube`). */
  listClusters(serviceName: string): Promise<string[]>;
  getCluster(target: OvhKubeTarget): Promise<OvhCluster>;
  listCapabilityFlavors(serviceName: string, region: string): Promise<OvhFlavor[]>;
  /** The regions MKS offers the project (`GET /cloud/project/{serviceName}/capabilities/kube/regions`). */
  listCapabilityRegions(serviceName: string): Promise<string[]>;
  /** Prices by flavor name from `GET /order/catalog/public/cloud` (public, unsigned). */
  listPrices(subsidiary: string): Promise<ReadonlyMap<string, OvhFlavorPrice>>;
  listNodePools(target: OvhKubeTarget): Promise<OvhNodePool[]>;
  getNodePool(target: OvhKubeTarget, poolId: string): Promise<OvhNodePool>;
  createNodePool(target: OvhKubeTarget, body: OvhPoolCreation): Promise<OvhNodePool>;
  updateNodePool(target: OvhKubeTarget, poolId: string, body: OvhPoolUpdate): Promise<void>;
  deleteNodePool(target: OvhKubeTarget, poolId: string): Promise<void>;
  listPoolNodes(target: OvhKubeTarget, poolId: string): Promise<OvhNode[]>;
  /** Every node of the cluster (one call, whatever the number of pools). */
  listNodes(target: OvhKubeTarget): Promise<OvhNode[]>;
  deleteNode(target: OvhKubeTarget, nodeId: string): Promise<void>;
}

export const OvhApiCalls: ApiCallKinds<OvhApi> = {
  listClusters: 'read',
  getCluster: 'read',
  listCapabilityFlavors: 'read',
  listCapabilityRegions: 'read',
  listPrices: 'read',
  listNodePools: 'read',
  getNodePool: 'read',
  createNodePool: 'write',
  updateNodePool: 'write',
  deleteNodePool: 'write',
  listPoolNodes: 'read',
  listNodes: 'read',
  deleteNode: 'write',
};
