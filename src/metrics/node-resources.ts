/**
 * Upstream Karpenter's per-node resource gauges (`pkg/controllers/metrics/node`): allocatable, the requests of
 * every pod bound to the node, those of its DaemonSet pods, and the system overhead (capacity minus
 * allocatable), one series per node and resource. Computed from cluster state when Prometheus scrapes, so a
 * deleted node's series disappear with it and no loop has to keep them fresh.
 */
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { Gauge, type Registry } from 'prom-client';
import {
  LabelArch,
  LabelCapacityType,
  LabelInstanceType,
  LabelNodePool,
  LabelOS,
  LabelTopologyRegion,
  LabelTopologyZone,
  LabelWindowsBuild,
} from '../apis/v1/labels.js';
import type { ResourceList } from '../domain/instancetypes/types.js';
import { isDaemonSetPod, podRequests } from '../domain/pods/index.js';
import { addResources, parseResourceList, subtractResources } from '../domain/quantity/index.js';

/** Upstream's well-known node labels, by the metric label name it gives each (snake_case of the key's name). */
const WellKnownNodeLabels: Readonly<Record<string, string>> = {
  nodepool: LabelNodePool,
  zone: LabelTopologyZone,
  region: LabelTopologyRegion,
  instance_type: LabelInstanceType,
  arch: LabelArch,
  os: LabelOS,
  capacity_type: LabelCapacityType,
  windows_build: LabelWindowsBuild,
};

export const NodeResourceLabels = [...Object.keys(WellKnownNodeLabels), 'node_name', 'phase', 'managed', 'resource_type'] as const;
export type NodeResourceLabel = (typeof NodeResourceLabels)[number];

/** What the gauges read of a state node: its Node, the non-terminal pods bound to it, and whether we launched it. */
export interface NodeResourceView {
  node?: V1Node;
  pods: readonly V1Pod[];
  managed: boolean;
}

export type NodeResourceKind = 'allocatable' | 'podRequests' | 'daemonRequests' | 'systemOverhead';

export interface NodeResourceSample {
  labels: Record<NodeResourceLabel, string>;
  value: number;
}

/** A pod whose requests cannot be parsed (the API server would have refused it) counts as requesting nothing. */
function requestsOf(pods: readonly V1Pod[]): ResourceList {
  return addResources(
    ...pods.map((pod) => {
      try {
        return podRequests(pod);
      } catch {
        return {};
      }
    }),
  );
}

function listOf(quantities: Record<string, string> | undefined): ResourceList {
  try {
    return parseResourceList(quantities);
  } catch {
    return {};
  }
}

function resources(view: NodeResourceView & { node: V1Node }, kind: NodeResourceKind): ResourceList {
  const status = view.node.status;
  switch (kind) {
    case 'allocatable':
      return listOf(status?.allocatable);
    case 'podRequests':
      return requestsOf(view.pods);
    case 'daemonRequests':
      return requestsOf(view.pods.filter(isDaemonSetPod));
    case 'systemOverhead':
      return subtractResources(listOf(status?.capacity), listOf(status?.allocatable));
  }
}

function nodeLabels(view: NodeResourceView & { node: V1Node }): Omit<Record<NodeResourceLabel, string>, 'resource_type'> {
  const labels = view.node.metadata?.labels ?? {};
  const wellKnown = Object.fromEntries(Object.entries(WellKnownNodeLabels).map(([metricLabel, key]) => [metricLabel, labels[key] ?? '']));
  return {
    ...wellKnown,
    node_name: view.node.metadata?.name ?? '',
    phase: view.node.status?.phase ?? '',
    managed: String(view.managed),
  } as Omit<Record<NodeResourceLabel, string>, 'resource_type'>;
}

/** Upstream's resource_type: the resource name lowercased, dashes as underscores. */
export function resourceTypeLabel(name: string): string {
  return name.toLowerCase().replaceAll('-', '_');
}

/** One sample per Node and resource; cpu in cores (our lists hold millicores), every other resource in base units. */
export function nodeResourceSamples(views: readonly NodeResourceView[], kind: NodeResourceKind): NodeResourceSample[] {
  const samples: NodeResourceSample[] = [];
  for (const view of views) {
    if (view.node === undefined) continue;
    const withNode = view as NodeResourceView & { node: V1Node };
    const base = nodeLabels(withNode);
    for (const [name, amount] of Object.entries(resources(withNode, kind))) {
      samples.push({ labels: { ...base, resource_type: resourceTypeLabel(name) }, value: name === 'cpu' ? amount / 1000 : amount });
    }
  }
  return samples;
}

export interface NodeResourceMetrics {
  allocatable: Gauge<NodeResourceLabel>;
  totalPodRequests: Gauge<NodeResourceLabel>;
  totalDaemonRequests: Gauge<NodeResourceLabel>;
  systemOverhead: Gauge<NodeResourceLabel>;
  /** Where the gauges read the nodes at each scrape; until called they export no series. */
  readFrom(source: () => readonly NodeResourceView[]): void;
}

const definitions: ReadonlyArray<[keyof Omit<NodeResourceMetrics, 'readFrom'>, NodeResourceKind, string, string]> = [
  ['allocatable', 'allocatable', 'karpenter_nodes_allocatable', 'Node allocatable are the resources allocatable by nodes.'],
  [
    'totalPodRequests',
    'podRequests',
    'karpenter_nodes_total_pod_requests',
    'Node total pod requests are the resources requested by pods bound to nodes, including the DaemonSet pods.',
  ],
  [
    'totalDaemonRequests',
    'daemonRequests',
    'karpenter_nodes_total_daemon_requests',
    'Node total daemon requests are the resource requested by DaemonSet pods bound to nodes.',
  ],
  [
    'systemOverhead',
    'systemOverhead',
    'karpenter_nodes_system_overhead',
    "Node system daemon overhead are the resources reserved for system overhead, the difference between the node's capacity and allocatable values are reported by the status.",
  ],
];

/** The four gauges in `registry`, once per registry (a second call returns the same gauges and source). */
export function nodeResourceMetrics(registry: Registry): NodeResourceMetrics {
  const known = registries.get(registry);
  if (known) return known;
  let source: () => readonly NodeResourceView[] = () => [];
  const gauges = Object.fromEntries(
    definitions.map(([key, kind, name, help]) => {
      const gauge: Gauge<NodeResourceLabel> = new Gauge({
        name,
        help,
        labelNames: NodeResourceLabels,
        registers: [registry],
        collect(): void {
          gauge.reset();
          for (const sample of nodeResourceSamples(source(), kind)) gauge.set(sample.labels, sample.value);
        },
      });
      return [key, gauge];
    }),
  ) as Omit<NodeResourceMetrics, 'readFrom'>;
  const metrics: NodeResourceMetrics = { ...gauges, readFrom: (next) => void (source = next) };
  registries.set(registry, metrics);
  return metrics;
}

const registries = new WeakMap<Registry, NodeResourceMetrics>();
