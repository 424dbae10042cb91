import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../../src/metrics/registry.js';

/**
 * Upstream Karpenter's label sets (kubernetes-sigs/karpenter: pkg/metrics/metrics.go, pkg/cloudprovider/metrics,
 * pkg/controllers/**\/metrics.go, pkg/controllers/metrics/{node,pod,nodepool}) for every `karpenter_*` metric of
 * the same name we export. Dashboards and recording rules written for upstream select and aggregate on these
 * labels, so a label missing here, or one upstream dropped, breaks them.
 */
const nodeLabels = [
  'nodepool',
  'zone',
  'region',
  'instance_type',
  'arch',
  'os',
  'capacity_type',
  'windows_build',
  'node_name',
  'phase',
  'managed',
];
const upstream: Record<string, readonly string[]> = {
  karpenter_nodeclaims_created_total: ['reason', 'nodepool', 'min_values_relaxed'],
  karpenter_nodeclaims_terminated_total: ['nodepool', 'capacity_type', 'zone'],
  karpenter_nodeclaims_disrupted_total: ['reason', 'nodepool', 'capacity_type', 'consolidation_policy', 'termination_mode'],
  karpenter_nodeclaims_unhealthy_disrupted_total: ['condition', 'nodepool', 'capacity_type', 'image_id'],
  karpenter_nodeclaims_termination_duration_seconds: ['nodepool'],
  karpenter_nodes_created_total: ['nodepool', 'zone'],
  karpenter_nodes_terminated_total: ['nodepool', 'zone'],
  karpenter_nodes_termination_duration_seconds: ['nodepool'],
  karpenter_nodes_allocatable: [...nodeLabels, 'resource_type'],
  karpenter_nodes_total_pod_requests: [...nodeLabels, 'resource_type'],
  karpenter_nodes_total_daemon_requests: [...nodeLabels, 'resource_type'],
  karpenter_nodes_system_overhead: [...nodeLabels, 'resource_type'],
  karpenter_pods_state: [
    'name',
    'namespace',
    'owner',
    'node',
    'scheduled',
    'nodepool',
    'zone',
    'arch',
    'capacity_type',
    'instance_type',
    'phase',
    'ready',
    'managed',
  ],
  karpenter_pods_startup_duration_seconds: [],
  karpenter_scheduler_scheduling_duration_seconds: ['controller'],
  karpenter_scheduler_queue_depth: ['controller', 'scheduling_id'],
  karpenter_scheduler_unschedulable_pods_count: ['controller'],
  karpenter_scheduler_ignored_pods_count: [],
  karpenter_voluntary_disruption_decisions_total: ['decision', 'reason', 'consolidation_type'],
  karpenter_voluntary_disruption_eligible_nodes: ['reason'],
  karpenter_voluntary_disruption_decision_evaluation_duration_seconds: ['reason', 'consolidation_type'],
  karpenter_voluntary_disruption_consolidation_timeouts_total: ['consolidation_type'],
  karpenter_voluntary_disruption_queue_failures_total: ['decision', 'reason', 'consolidation_type'],
  karpenter_nodepools_usage: ['resource_type', 'nodepool'],
  karpenter_nodepools_limit: ['resource_type', 'nodepool'],
  karpenter_nodepools_allowed_disruptions: ['nodepool', 'reason'],
  karpenter_cluster_state_synced: [],
  karpenter_cluster_state_node_count: [],
  karpenter_cloudprovider_duration_seconds: ['controller', 'method', 'provider'],
  karpenter_cloudprovider_errors_total: ['controller', 'method', 'provider', 'error'],
  // The instance-type families live in the AWS provider (pkg/providers/instancetype/metrics.go), not in the core.
  karpenter_cloudprovider_instance_type_cpu_cores: ['instance_type'],
  karpenter_cloudprovider_instance_type_memory_bytes: ['instance_type'],
  karpenter_cloudprovider_instance_type_offering_available: ['instance_type', 'capacity_type', 'zone'],
  karpenter_cloudprovider_instance_type_offering_price_estimate: ['instance_type', 'capacity_type', 'zone'],
};

function labelNames(registry: Registry, name: string): string[] | undefined {
  const metric = registry.getSingleMetric(name) as unknown as { labelNames?: string[] } | undefined;
  return metric === undefined ? undefined : [...(metric.labelNames ?? [])].sort();
}

describe("metrics that carry upstream Karpenter's names carry its label sets", () => {
  const registry = new Registry();
  createMetrics(registry);

  it.each(Object.entries(upstream))('%s', (name, labels) => {
    expect(labelNames(registry, name)).toEqual([...labels].sort());
  });

  it('every karpenter_* metric we export (not karpenter_eu_*) is one upstream has, checked above', async () => {
    const ours = (await registry.getMetricsAsJSON())
      .map((m) => m.name)
      .filter((n) => n.startsWith('karpenter_') && !n.startsWith('karpenter_eu_'));
    expect(ours.filter((n) => upstream[n] === undefined && n !== 'karpenter_build_info')).toEqual([]);
  });
});
