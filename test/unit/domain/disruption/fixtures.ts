/** Small cluster builders for disruption tests: NodePools, Nodes + NodeClaims with pods, inputs. */
import type { V1Pod } from '@kubernetes/client-node';
import type { Budget, NodePool } from '../../../../src/apis/index.js';
import type { DisruptionInput, DisruptionNode } from '../../../../src/domain/disruption/index.js';
import type { InstanceType } from '../../../../src/domain/instancetypes/types.js';
import { instanceType, nodePool as schedulingPool, pod } from '../scheduling/helpers.js';

export { instanceType, pod };

export const NOW = Date.UTC(2026, 0, 5, 12, 0); // a Monday, 12:00 UTC
export const HOUR = 3_600_000;

export const types = (): InstanceType[] => [
  instanceType('s-2', 2, 4, 0.05),
  instanceType('s-4', 4, 8, 0.1),
  instanceType('s-8', 8, 16, 0.2),
  instanceType('s-16', 16, 32, 0.4),
];

export interface PoolOptions {
  budgets?: Budget[];
  consolidationPolicy?: 'WhenEmpty' | 'WhenEmptyOrUnderutilized';
  consolidateAfter?: string;
  expireAfter?: string;
  requirements?: { key: string; operator: 'In' | 'NotIn' | 'Exists'; values?: string[] }[];
}

export function apiNodePool(name: string, o: PoolOptions = {}): NodePool {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name },
    spec: {
      disruption: {
        budgets: o.budgets ?? [{ nodes: '100%' }],
        consolidationPolicy: o.consolidationPolicy ?? 'WhenEmptyOrUnderutilized',
        consolidateAfter: o.consolidateAfter ?? '0s',
      },
      template: {
        spec: {
          nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'default' },
          requirements: o.requirements ?? [],
          expireAfter: o.expireAfter ?? 'Never',
        },
      },
    },
  } as NodePool;
}

export interface NodeOptions {
  pool?: string;
  zone?: string;
  createdAt?: number;
  lastPodEventAt?: number;
  annotations?: Record<string, string>;
  claimAnnotations?: Record<string, string>;
  markedForDeletion?: boolean;
  cloudDriftReason?: string;
}

export function clusterNode(name: string, type: InstanceType, pods: V1Pod[], o: NodeOptions = {}): DisruptionNode {
  const pool = o.pool ?? 'default';
  const zone = o.zone ?? 'z-a';
  const labels = {
    ...type.labels,
    'topology.kubernetes.io/zone': zone,
    'karpenter.sh/nodepool': pool,
    'karpenter.sh/capacity-type': 'on-demand',
    'kubernetes.io/hostname': name,
    'karpenter.sh/initialized': 'true',
  };
  const allocatable = { cpu: `${type.allocatable.cpu}m`, memory: String(type.allocatable.memory), pods: '110' };
  const created = new Date(o.createdAt ?? NOW - 2 * HOUR).toISOString();
  return {
    name,
    node: {
      metadata: { name, labels, annotations: o.annotations ?? {} },
      spec: { providerID: `fake://${name}` },
      status: { allocatable, capacity: allocatable, conditions: [{ type: 'Ready', status: 'True' }] },
    },
    nodeClaim: {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: { name: `claim-${name}`, labels, annotations: o.claimAnnotations ?? {}, creationTimestamp: created },
      spec: { nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'default' }, requirements: [] },
      status: {
        providerID: `fake://${name}`,
        conditions: [{ type: 'Initialized', status: 'True', lastTransitionTime: created, reason: 'Initialized', message: '' }],
      },
    } as unknown as DisruptionNode['nodeClaim'],
    nodePool: pool,
    pods: pods.map((p) => ({
      ...p,
      spec: { ...p.spec, containers: p.spec?.containers ?? [], nodeName: name },
      status: { phase: 'Running' },
    })),
    initialized: true,
    markedForDeletion: o.markedForDeletion ?? false,
    nominated: false,
    pricePerHour: type.offerings.find((x) => x.zone === zone)?.pricePerHour,
    lastPodEventAt: o.lastPodEventAt ?? NOW - HOUR,
    ...(o.cloudDriftReason === undefined ? {} : { cloudDriftReason: o.cloudDriftReason }),
  };
}

export function disruptionInput(
  nodes: DisruptionNode[],
  pools: NodePool[] = [apiNodePool('default')],
  extra: Partial<DisruptionInput> = {},
  poolTypes: InstanceType[] = types(),
): DisruptionInput {
  return {
    now: NOW,
    nodes,
    pendingPods: [],
    nodePools: pools,
    schedulingNodePools: pools.map((p) =>
      schedulingPool(p.metadata?.name ?? '', poolTypes, { requirements: p.spec.template.spec.requirements as never }),
    ),
    ...extra,
  };
}

/** `n` pods of `cpu` each, named `<prefix>-i`. */
export function pods(prefix: string, n: number, cpu: string, memory = '256Mi', labels: Record<string, string> = {}): V1Pod[] {
  return Array.from({ length: n }, (_, i) => pod(`${prefix}-${i}`, cpu, memory, {}, labels));
}

/** A NodeClaim launched or launching whose Node is not there or not initialized yet (a replacement in flight). */
export function inFlightClaim(name: string, type: InstanceType, o: { pool?: string; zone?: string } = {}): DisruptionNode {
  const pool = o.pool ?? 'default';
  return {
    name,
    nodeClaim: {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: { name, labels: { 'karpenter.sh/nodepool': pool }, creationTimestamp: new Date(NOW - 60_000).toISOString() },
      spec: {
        nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'default' },
        requirements: [
          { key: 'node.kubernetes.io/instance-type', operator: 'In', values: [type.name] },
          { key: 'topology.kubernetes.io/zone', operator: 'In', values: [o.zone ?? 'z-a'] },
        ],
      },
    } as unknown as DisruptionNode['nodeClaim'],
    nodePool: pool,
    pods: [],
    initialized: false,
    markedForDeletion: false,
    nominated: false,
  };
}
