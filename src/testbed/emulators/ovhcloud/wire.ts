/** Records → the JSON the MKS API returns (`cloud.kube.Cluster`, `NodePool`, `Node`, `Flavor`). */
import type { CatalogFlavor } from '../../../catalog/types.js';
import { nodeStatus, poolStatus, sizeStatus, visibleInstanceId, isLive } from './lifecycle.js';
import type { ClusterRecord, NodeRecord, PoolRecord } from './records.js';

/** OVH dates: ISO 8601, second precision, UTC (`2024-01-24T10:21:33Z`). */
export function ovhDate(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The providerID a Kubernetes Node for this instance carries on MKS. */
export function providerIdOf(instanceId: string): string {
  return `openstack:///${instanceId}`;
}

export function clusterToWire(cluster: ClusterRecord): Record<string, unknown> {
  const host = `${cluster.id.slice(0, 6)}.c1.${cluster.region.toLowerCase()}.k8s.ovh.net`;
  return {
    id: cluster.id,
    name: cluster.name,
    region: cluster.region,
    version: cluster.version,
    status: 'READY',
    url: host,
    nodesUrl: host.replace('.c1.', '.nodes.c1.'),
    isUpToDate: true,
    controlPlaneIsUpToDate: true,
    nextUpgradeVersions: [],
    updatePolicy: 'ALWAYS_UPDATE',
    plan: 'free',
    kubeProxyMode: 'iptables',
    customization: { apiServer: { admissionPlugins: { enabled: ['AlwaysPullImages', 'NodeRestriction'], disabled: [] } } },
    privateNetworkId: null,
    privateNetworkConfiguration: null,
    nodesSubnetId: null,
    loadBalancersSubnetId: null,
    auditLogsSubscribed: false,
    createdAt: ovhDate(cluster.createdAt),
    updatedAt: ovhDate(cluster.createdAt),
  };
}

export function nodeToWire(node: NodeRecord, now: number): Record<string, unknown> {
  const status = nodeStatus(node, now);
  const transitions = [node.createdAt, node.instanceAt, node.readyAt, node.deleteRequestedAt ?? 0, node.goneAt ?? 0].filter(
    (t) => t <= now,
  );
  return {
    id: node.id,
    projectId: node.projectId,
    nodePoolId: node.poolId,
    name: node.name,
    flavor: node.flavor,
    instanceId: visibleInstanceId(node, now),
    availabilityZone: node.zone || null,
    isUpToDate: true,
    status,
    version: node.version,
    createdAt: ovhDate(node.createdAt),
    deployedAt: !node.failure && now >= node.readyAt ? ovhDate(node.readyAt) : null,
    deletedAt: status === 'DELETED' && node.goneAt !== undefined ? ovhDate(node.goneAt) : null,
    updatedAt: ovhDate(Math.max(...transitions)),
  };
}

export function poolToWire(pool: PoolRecord, nodes: NodeRecord[], now: number): Record<string, unknown> {
  const live = nodes.filter(isLive);
  const available = live.filter((n) => nodeStatus(n, now) === 'READY').length;
  return {
    id: pool.id,
    projectId: pool.projectId,
    name: pool.name,
    flavor: pool.flavor,
    status: poolStatus(pool, nodes, now),
    sizeStatus: sizeStatus(pool, available),
    autoscale: pool.autoscale,
    autoscaling: { ...pool.autoscaling },
    monthlyBilled: pool.monthlyBilled,
    antiAffinity: pool.antiAffinity,
    availabilityZones: [...pool.availabilityZones],
    attachFloatingIps: { ...pool.attachFloatingIps },
    desiredNodes: pool.desiredNodes,
    minNodes: pool.minNodes,
    maxNodes: pool.maxNodes,
    currentNodes: live.length,
    availableNodes: available,
    upToDateNodes: available,
    template: structuredClone(pool.template),
    createdAt: ovhDate(pool.createdAt),
    updatedAt: ovhDate(pool.updatedAt),
  };
}

const CATEGORIES = new Set(['a', 'b', 'c', 'd', 'g', 'h', 'i', 'l', 'r', 't']);

/** MKS flavor categories: the family's letter (`b3` → `b`); GPU families other than t1/t2 are `g`. */
function categoryOf(flavor: CatalogFlavor): string {
  const letter = flavor.family.charAt(0).toLowerCase();
  if (flavor.gpu && letter !== 't') return 'g';
  return CATEGORIES.has(letter) ? letter : 'b';
}

export function flavorToWire(flavor: CatalogFlavor, available: boolean): Record<string, unknown> {
  return {
    name: flavor.name,
    category: categoryOf(flavor),
    state: available ? 'available' : 'unavailable',
    vCPUs: flavor.vcpus,
    gpus: flavor.gpu?.count ?? 0,
    ram: Math.round(flavor.memoryMiB / 1024),
  };
}
