/** The emulator's own records of MKS clusters, node pools and nodes (not the wire shapes). */

export type NodeFailure = 'FLAVOR_OUT_OF_STOCK_ERROR' | 'USER_QUOTA_ERROR';

export interface PoolTemplate {
  metadata: { labels: Record<string, string>; annotations: Record<string, string>; finalizers: string[] };
  spec: { taints: { key: string; value: string; effect: string }[]; unschedulable: boolean };
}

export interface AutoscalingSettings {
  scaleDownUnneededTimeSeconds: number;
  scaleDownUnreadyTimeSeconds: number;
  scaleDownUtilizationThreshold: number;
}

export interface ClusterRecord {
  id: string;
  serviceName: string;
  name: string;
  /** Upper-case region, `GRA11` or `EU-WEST-PAR`. */
  region: string;
  /** The region's zones, as nodes of this cloud carry them (`eu-west-par-a`, `gra11-a`). */
  zones: string[];
  version: string;
  createdAt: number;
}

export interface PoolRecord {
  id: string;
  clusterId: string;
  projectId: string;
  name: string;
  flavor: string;
  availabilityZones: string[];
  desiredNodes: number;
  minNodes: number;
  maxNodes: number;
  autoscale: boolean;
  autoscaling: AutoscalingSettings;
  monthlyBilled: boolean;
  antiAffinity: boolean;
  attachFloatingIps: { enabled: boolean };
  template: PoolTemplate;
  createdAt: number;
  updatedAt: number;
  /** Eventual consistency: GET answers 404 and lists omit the pool before this instant. */
  visibleAt: number;
  /** The pool stays INSTALLING until this instant (and while its first nodes boot). */
  installedAt: number;
  /** "Pool created but not listing nodes for a while": node lists omit the pool's nodes before this. */
  nodesListedFrom: number;
  deleteRequestedAt?: number;
  /** When a deleting pool disappears (404). */
  goneAt?: number;
}

export interface NodeRecord {
  id: string;
  poolId: string;
  clusterId: string;
  projectId: string;
  name: string;
  flavor: string;
  zone: string;
  /** The OpenStack instance id, shown once `instanceAt` is reached. */
  instanceId: string;
  version: string;
  createdAt: number;
  /** Nodes appear in lists asynchronously, after the scale request returned. */
  appearsAt: number;
  instanceAt: number;
  readyAt: number;
  failure?: NodeFailure;
  deleteRequestedAt?: number;
  goneAt?: number;
}
