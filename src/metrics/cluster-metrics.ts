/**
 * Gauges that describe the cluster as cluster state holds it, computed when Prometheus scrapes: upstream's
 * metrics.pod and metrics.nodepool controllers (`karpenter_pods_state`, `karpenter_nodepools_usage` and `_limit`),
 * cluster state's node count, and operatorpkg's status-condition gauges. A deleted object's series go with it,
 * and no loop has to keep them fresh.
 */
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { Gauge, type Registry } from 'prom-client';
import type { NodeClaim, NodePool } from '../apis/index.js';
import { LabelArch, LabelCapacityType, LabelInstanceType, LabelNodePool, LabelTopologyZone } from '../apis/v1/labels.js';
import { parseLimits, usageAsResourceList } from '../domain/nodepool/limits.js';
import type { ResourceList } from '../domain/instancetypes/types.js';
import { nodePoolUsage } from '../state/cluster-state.js';
import type { NodeClassEntry, StateNode } from '../state/snapshot.js';
import { resourceTypeLabel } from './node-resources.js';
import { type ConditionedObject, conditionGaugeSamples, statusConditionKinds } from './status-conditions.js';

/** What the gauges read of cluster state (ClusterState satisfies it). */
export interface ClusterMetricsSource {
  stateNodes(): readonly StateNode[];
  nodePoolList(): readonly NodePool[];
  nodeClaimList(): readonly NodeClaim[];
  nodeClassList(): readonly NodeClassEntry[];
  podList(): readonly V1Pod[];
  node(name: string): V1Node | undefined;
}

export const PodStateLabels = [
  'name',
  'namespace',
  'owner',
  'node',
  'nodepool',
  'zone',
  'arch',
  'capacity_type',
  'instance_type',
  'phase',
  'scheduled',
  'ready',
  'managed',
] as const;
type PodStateLabel = (typeof PodStateLabels)[number];

/** cpu in cores (our lists hold millicores), every other resource in base units, as upstream's gauges. */
function resourceSamples(list: ResourceList, nodepool: string): { labels: { nodepool: string; resource_type: string }; value: number }[] {
  return Object.entries(list).map(([name, amount]) => ({
    labels: { nodepool, resource_type: resourceTypeLabel(name) },
    value: name === 'cpu' ? amount / 1000 : amount,
  }));
}

function limitsOf(nodePool: NodePool): ResourceList {
  try {
    return parseLimits(nodePool.spec?.limits as Record<string, string> | undefined);
  } catch {
    return {};
  }
}

/** Upstream's owner label: the self link of the pod's first owner. */
function ownerSelfLink(pod: V1Pod): string {
  const owner = pod.metadata?.ownerReferences?.[0];
  if (!owner) return '';
  return `/apis/${owner.apiVersion}/namespaces/${pod.metadata?.namespace ?? ''}/${owner.kind.toLowerCase()}s/${owner.name}`;
}

export function podStateLabels(pod: V1Pod, node: V1Node | undefined): Record<PodStateLabel, string> {
  const nodeName = pod.spec?.nodeName ?? '';
  const labels = node?.metadata?.labels ?? {};
  const ready = (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
  return {
    name: pod.metadata?.name ?? '',
    namespace: pod.metadata?.namespace ?? '',
    owner: ownerSelfLink(pod),
    node: nodeName,
    scheduled: String(nodeName !== ''),
    nodepool: labels[LabelNodePool] ?? '',
    zone: labels[LabelTopologyZone] ?? '',
    arch: labels[LabelArch] ?? '',
    capacity_type: labels[LabelCapacityType] ?? '',
    instance_type: labels[LabelInstanceType] ?? '',
    phase: pod.status?.phase ?? '',
    ready: String(ready),
    managed: String((labels[LabelNodePool] ?? '') !== ''),
  };
}

export interface ClusterMetrics {
  stateNodeCount: Gauge;
  podsState: Gauge<PodStateLabel>;
  nodePoolsUsage: Gauge<'nodepool' | 'resource_type'>;
  nodePoolsLimit: Gauge<'nodepool' | 'resource_type'>;
  /** The replica's own cluster state: `karpenter_cluster_state_node_count`, on every replica as upstream's. */
  countFrom(source: ClusterMetricsSource): void;
  /** The leader's view for the per-object gauges (pods, NodePools, status conditions); undefined exports none. */
  readFrom(source: ClusterMetricsSource | undefined): void;
}

interface Sources {
  state?: ClusterMetricsSource;
  leader?: ClusterMetricsSource;
  now: () => number;
}

function gauge<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
  fill: (g: Gauge<L>) => void,
): Gauge<L> {
  const g: Gauge<L> = new Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    collect(): void {
      g.reset();
      fill(g);
    },
  });
  return g;
}

function nodePoolGauges(registry: Registry, sources: Sources): Pick<ClusterMetrics, 'nodePoolsUsage' | 'nodePoolsLimit'> {
  const usageHelp = 'The amount of resources that have been provisioned for a nodepool. Labeled by nodepool name and resource type.';
  const limitHelp =
    'Limits specified on the nodepool that restrict the quantity of resources provisioned. Labeled by nodepool name and resource type.';
  const labels = ['nodepool', 'resource_type'] as const;
  const nodePoolsUsage = gauge(registry, 'karpenter_nodepools_usage', usageHelp, labels, (g) => {
    const source = sources.leader;
    if (!source) return;
    const usage = nodePoolUsage(source.stateNodes());
    for (const pool of source.nodePoolList()) {
      const name = pool.metadata?.name ?? '';
      for (const s of resourceSamples(usageAsResourceList(usage[name]), name)) g.set(s.labels, s.value);
    }
  });
  const nodePoolsLimit = gauge(registry, 'karpenter_nodepools_limit', limitHelp, labels, (g) => {
    for (const pool of sources.leader?.nodePoolList() ?? []) {
      for (const s of resourceSamples(limitsOf(pool), pool.metadata?.name ?? '')) g.set(s.labels, s.value);
    }
  });
  return { nodePoolsUsage, nodePoolsLimit };
}

/** The status-condition count and current-status gauges of each kind (operatorpkg's `operator_<kind>_status_condition_*`). */
function conditionGauges(registry: Registry, sources: Sources): void {
  for (const kind of statusConditionKinds) {
    const objects = (source: ClusterMetricsSource): ConditionedObject[] => kind.objects(source);
    const read = (value: 'count' | 'seconds') => (g: Gauge<string>) => {
      const source = sources.leader;
      if (!source) return;
      for (const s of conditionGaugeSamples(kind, objects(source), sources.now())) g.set(s.labels, value === 'count' ? 1 : s.seconds);
    };
    gauge(
      registry,
      `operator_${kind.name}_status_condition_count`,
      'The number of an condition for a given object, type and status. e.g. Alarm := Available=False > 0',
      kind.gaugeLabels,
      read('count'),
    );
    gauge(
      registry,
      `operator_${kind.name}_status_condition_current_status_seconds`,
      'The current amount of time in seconds that a status condition has been in a specific state. Alarm := P99(Updated=Unknown) > 5 minutes',
      kind.gaugeLabels,
      read('seconds'),
    );
  }
}

/** The gauges in `registry`, once per registry (a second call returns the same gauges and sources). */
export function clusterMetrics(registry: Registry, now: () => number = Date.now): ClusterMetrics {
  const known = registries.get(registry);
  if (known) return known;
  const sources: Sources = { now };
  const stateNodeCount = gauge(registry, 'karpenter_cluster_state_node_count', 'Current count of nodes in cluster state', [], (g) => {
    if (sources.state) g.set(sources.state.stateNodes().length);
  });
  const podsState = gauge(
    registry,
    'karpenter_pods_state',
    'Pod state is the current state of pods. This metric can be used several ways as it is labeled by the pod name, namespace, owner, node, nodepool name, zone, architecture, capacity type, instance type and pod phase.',
    PodStateLabels,
    (g) => {
      const source = sources.leader;
      if (!source) return;
      for (const pod of source.podList()) g.set(podStateLabels(pod, source.node(pod.spec?.nodeName ?? '')), 1);
    },
  );
  conditionGauges(registry, sources);
  const metrics: ClusterMetrics = {
    stateNodeCount,
    podsState,
    ...nodePoolGauges(registry, sources),
    countFrom: (source) => void (sources.state = source),
    readFrom: (source) => void (sources.leader = source),
  };
  registries.set(registry, metrics);
  return metrics;
}

const registries = new WeakMap<Registry, ClusterMetrics>();
