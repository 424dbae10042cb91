/**
 * Karpenter's metrics (names, labels and buckets from `pkg/metrics`), defined in the one prom-client Registry
 * the composition root passes in. No default registry and no global: two services in one process (tests,
 * the demo) keep their numbers apart. Creating twice on one registry returns the metrics already there.
 */
import { DeletionReasons } from '../apis/v1/deletion-reasons.js';
import { collectDefaultMetrics, Counter, Gauge, Histogram, type Registry, Summary } from 'prom-client';
import { cloudProviderMetrics, type CloudProviderMetrics } from '../cloudprovider/metrics.js';
import { clusterMetrics, type ClusterMetrics } from './cluster-metrics.js';
import { nodeResourceMetrics, type NodeResourceMetrics } from './node-resources.js';
import { podStartupTracker, type PodStartupTracker } from './pod-startup.js';
import { reconcileMetrics, type ReconcileMetrics } from './reconcile-metrics.js';
import { conditionTransitions, type ConditionTransitions } from './status-conditions.js';

/** Karpenter's DurationBuckets: controller-runtime's up to 1 s, then up to 10 min. */
export const DurationBuckets: readonly number[] = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 1.25, 1.5, 1.75, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60, 120,
  150, 300, 450, 600,
];

/**
 * Request latency of the webhooks and the extender: they answer inside the API server's request and the
 * scheduler's cycle in about a millisecond, so the buckets start at 0.5 ms and end at the webhooks' 10 s timeout.
 */
export const RequestBuckets: readonly number[] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Values of the `reason` label: why a NodeClaim was created (`provisioned`) or deleted (apis/v1/deletion-reasons.ts). */
export const MetricReasons = { provisioned: 'provisioned', ...DeletionReasons } as const;
export type MetricReason = (typeof MetricReasons)[keyof typeof MetricReasons];

export { PodStateLabels } from './cluster-metrics.js';

export interface Metrics {
  registry: Registry;
  /** Upstream's labels: `goversion` carries the Node.js version, `goarch` the process's architecture. */
  buildInfo: Gauge<'version' | 'goversion' | 'goarch' | 'commit'>;
  nodeClaimsCreated: Counter<'reason' | 'nodepool' | 'min_values_relaxed'>;
  nodeClaimsTerminated: Counter<'nodepool' | 'capacity_type' | 'zone'>;
  /** Upstream's terminated counter has no `reason`; ours keeps why in its own series. */
  nodeClaimsTerminatedByReason: Counter<'reason' | 'nodepool'>;
  nodeClaimsDisrupted: Counter<'reason' | 'nodepool' | 'capacity_type' | 'consolidation_policy' | 'termination_mode'>;
  /** Node repair's deletions, by the Node condition that was unhealthy (upstream's node health controller). */
  nodeClaimsUnhealthyDisrupted: Counter<'condition' | 'nodepool' | 'capacity_type' | 'image_id'>;
  nodeClaimsTerminationDuration: Histogram<'nodepool'>;
  nodesCreated: Counter<'nodepool' | 'zone'>;
  nodesTerminated: Counter<'nodepool' | 'zone'>;
  nodesTerminationDuration: Summary<'nodepool'>;
  /** karpenter_nodes_allocatable, _total_pod_requests, _total_daemon_requests, _system_overhead. */
  nodeResources: NodeResourceMetrics;
  podsStartupDuration: Summary<never>;
  /** Feeds `podsStartupDuration` from the pods the informers see. */
  podStartup: PodStartupTracker;
  schedulingDuration: Histogram<'controller'>;
  schedulerQueueDepth: Gauge<'controller' | 'scheduling_id'>;
  schedulerUnschedulablePods: Gauge<'controller'>;
  schedulerIgnoredPods: Gauge<never>;
  disruptionDecisions: Counter<'decision' | 'reason' | 'consolidation_type'>;
  disruptionEligibleNodes: Gauge<'reason'>;
  disruptionEvaluationDuration: Histogram<'reason' | 'consolidation_type'>;
  disruptionConsolidationTimeouts: Counter<'consolidation_type'>;
  disruptionQueueFailures: Counter<'decision' | 'reason' | 'consolidation_type'>;
  nodePoolsAllowedDisruptions: Gauge<'nodepool' | 'reason'>;
  clusterStateSynced: Gauge<never>;
  /** Scrape-time gauges of cluster state: node count, pods, NodePool usage and limits, status conditions. */
  cluster: ClusterMetrics;
  conditionTransitions: ConditionTransitions;
  /** controller-runtime's reconcile and work-queue families, per controller. */
  reconciles: ReconcileMetrics;
  cloudProvider: CloudProviderMetrics;
  leaderElectionMaster: Gauge<'name'>;
  informerRestarts: Counter<'resource'>;
  nodeClaimsTerminatedUnused: Counter<'reason' | 'nodepool'>;
  /** `path`: /validate, /mutate, /scheduler/filter, /scheduler/prioritize; `code`: the HTTP status. */
  requestDuration: Histogram<'path' | 'code'>;
}

function counter<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[]): Counter<L> {
  const existing = registry.getSingleMetric(name) as Counter<L> | undefined;
  return existing ?? new Counter({ name, help, labelNames, registers: [registry] });
}

function gauge<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[]): Gauge<L> {
  const existing = registry.getSingleMetric(name) as Gauge<L> | undefined;
  return existing ?? new Gauge({ name, help, labelNames, registers: [registry] });
}

function histogram<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[]): Histogram<L> {
  const existing = registry.getSingleMetric(name) as Histogram<L> | undefined;
  return existing ?? new Histogram({ name, help, labelNames, buckets: [...DurationBuckets], registers: [registry] });
}

/** Upstream's SummaryObjectives (quantiles 0, 0.5, 0.9, 0.99, 1) over client_golang's default 10-minute window. */
function summary<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[]): Summary<L> {
  const existing = registry.getSingleMetric(name) as Summary<L> | undefined;
  return (
    existing ??
    new Summary({ name, help, labelNames, percentiles: [0, 0.5, 0.9, 0.99, 1], maxAgeSeconds: 600, ageBuckets: 5, registers: [registry] })
  );
}

function nodeClaimAndNodeMetrics(
  r: Registry,
): Pick<
  Metrics,
  | 'nodeClaimsCreated'
  | 'nodeClaimsTerminated'
  | 'nodeClaimsTerminatedByReason'
  | 'nodeClaimsDisrupted'
  | 'nodeClaimsUnhealthyDisrupted'
  | 'nodeClaimsTerminationDuration'
  | 'nodesCreated'
  | 'nodesTerminated'
  | 'nodesTerminationDuration'
> {
  return {
    nodeClaimsCreated: counter(
      r,
      'karpenter_nodeclaims_created_total',
      'Number of nodeclaims created in total by Karpenter. Labeled by reason the nodeclaim was created and the owning nodepool.',
      ['reason', 'nodepool', 'min_values_relaxed'],
    ),
    nodeClaimsTerminated: counter(
      r,
      'karpenter_nodeclaims_terminated_total',
      'Number of nodeclaims terminated in total by Karpenter. Labeled by the owning nodepool, capacity type and zone.',
      ['nodepool', 'capacity_type', 'zone'],
    ),
    nodeClaimsTerminatedByReason: counter(
      r,
      'karpenter_eu_nodeclaims_terminated_by_reason_total',
      'Number of nodeclaims terminated in total. Labeled by the reason they were terminated (the deletion-reason annotation) and the owning nodepool.',
      ['reason', 'nodepool'],
    ),
    nodeClaimsDisrupted: counter(
      r,
      'karpenter_nodeclaims_disrupted_total',
      'Number of nodeclaims disrupted in total by Karpenter. Labeled by reason the nodeclaim was disrupted, the owning nodepool, capacity type, consolidation policy and termination mode.',
      ['reason', 'nodepool', 'capacity_type', 'consolidation_policy', 'termination_mode'],
    ),
    nodeClaimsUnhealthyDisrupted: counter(
      r,
      'karpenter_nodeclaims_unhealthy_disrupted_total',
      'Number of unhealthy nodeclaims disrupted in total by Karpenter. Labeled by condition on the node was disrupted, the owning nodepool, and the image ID.',
      ['condition', 'nodepool', 'capacity_type', 'image_id'],
    ),
    nodeClaimsTerminationDuration: histogram(
      r,
      'karpenter_nodeclaims_termination_duration_seconds',
      'Duration of NodeClaim termination in seconds.',
      ['nodepool'],
    ),
    nodesCreated: counter(
      r,
      'karpenter_nodes_created_total',
      'Number of nodes created in total by Karpenter. Labeled by owning nodepool and zone.',
      ['nodepool', 'zone'],
    ),
    nodesTerminated: counter(
      r,
      'karpenter_nodes_terminated_total',
      'Number of nodes terminated in total by Karpenter. Labeled by owning nodepool and zone.',
      ['nodepool', 'zone'],
    ),
    nodesTerminationDuration: summary(
      r,
      'karpenter_nodes_termination_duration_seconds',
      "The time taken between a node's deletion request and the removal of its finalizer.",
      ['nodepool'],
    ),
  };
}

function podAndSchedulerMetrics(
  r: Registry,
): Pick<
  Metrics,
  'podsStartupDuration' | 'schedulingDuration' | 'schedulerQueueDepth' | 'schedulerUnschedulablePods' | 'schedulerIgnoredPods'
> {
  return {
    podsStartupDuration: summary(r, 'karpenter_pods_startup_duration_seconds', 'The time from pod creation until the pod is running.', []),
    schedulingDuration: histogram(
      r,
      'karpenter_scheduler_scheduling_duration_seconds',
      'Duration of scheduling simulations used for deprovisioning and provisioning in seconds.',
      ['controller'],
    ),
    schedulerQueueDepth: gauge(r, 'karpenter_scheduler_queue_depth', 'The number of pods currently waiting to be scheduled.', [
      'controller',
      'scheduling_id',
    ]),
    schedulerUnschedulablePods: gauge(r, 'karpenter_scheduler_unschedulable_pods_count', 'The number of unschedulable Pods.', [
      'controller',
    ]),
    schedulerIgnoredPods: gauge(r, 'karpenter_scheduler_ignored_pods_count', 'Number of pods ignored during scheduling by Karpenter.', []),
  };
}

function disruptionMetrics(
  r: Registry,
): Pick<
  Metrics,
  | 'disruptionDecisions'
  | 'disruptionEligibleNodes'
  | 'disruptionEvaluationDuration'
  | 'disruptionConsolidationTimeouts'
  | 'disruptionQueueFailures'
> {
  return {
    disruptionDecisions: counter(
      r,
      'karpenter_voluntary_disruption_decisions_total',
      'Number of disruption decisions performed. Labeled by disruption decision, reason, and consolidation type.',
      ['decision', 'reason', 'consolidation_type'],
    ),
    disruptionEligibleNodes: gauge(
      r,
      'karpenter_voluntary_disruption_eligible_nodes',
      'Number of nodes eligible for disruption by Karpenter. Labeled by disruption reason.',
      ['reason'],
    ),
    disruptionEvaluationDuration: histogram(
      r,
      'karpenter_voluntary_disruption_decision_evaluation_duration_seconds',
      'Duration of the disruption decision evaluation process in seconds. Labeled by reason and consolidation type.',
      ['reason', 'consolidation_type'],
    ),
    disruptionConsolidationTimeouts: counter(
      r,
      'karpenter_voluntary_disruption_consolidation_timeouts_total',
      'Number of times the Consolidation algorithm has reached a timeout. Labeled by consolidation type.',
      ['consolidation_type'],
    ),
    disruptionQueueFailures: counter(
      r,
      'karpenter_voluntary_disruption_queue_failures_total',
      'The number of times that an enqueued disruption decision failed. Labeled by disruption method.',
      ['decision', 'reason', 'consolidation_type'],
    ),
  };
}

function nodePoolAndStateMetrics(
  r: Registry,
): Pick<
  Metrics,
  | 'nodePoolsAllowedDisruptions'
  | 'clusterStateSynced'
  | 'leaderElectionMaster'
  | 'informerRestarts'
  | 'buildInfo'
  | 'nodeClaimsTerminatedUnused'
> {
  return {
    nodePoolsAllowedDisruptions: gauge(
      r,
      'karpenter_nodepools_allowed_disruptions',
      'The number of nodes for a given NodePool that can be concurrently disrupting at a point in time. Labeled by NodePool. Note that allowed disruptions can change very rapidly, as new nodes may be created and others may be deleted at any point.',
      ['nodepool', 'reason'],
    ),
    clusterStateSynced: gauge(
      r,
      'karpenter_cluster_state_synced',
      "Returns 1 if cluster state is synced and 0 otherwise. Synced checks that nodeclaims and nodes that are stored in the APIServer have the same representation as Karpenter's cluster state",
      [],
    ),
    // client-go's leader election metric name, so existing alerts on "who leads" keep working.
    leaderElectionMaster: gauge(
      r,
      'leader_election_master_status',
      "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease.",
      ['name'],
    ),
    informerRestarts: counter(
      r,
      'karpenter_eu_informer_restarts_total',
      'Number of times an informer was restarted after an error. Labeled by resource.',
      ['resource'],
    ),
    nodeClaimsTerminatedUnused: counter(
      r,
      'karpenter_eu_nodeclaims_terminated_unused_total',
      "Number of launched nodeclaims terminated without a pod other than a DaemonSet's ever bound to their node: capacity paid for and never used. Labeled by deletion reason and nodepool.",
      ['reason', 'nodepool'],
    ),
    buildInfo: gauge(r, 'karpenter_build_info', "A metric with a constant '1' value labeled by version from which karpenter was built.", [
      'version',
      'goversion',
      'goarch',
      'commit',
    ]),
  };
}

function requestDuration(r: Registry): Histogram<'path' | 'code'> {
  const name = 'karpenter_eu_request_duration_seconds';
  const existing = r.getSingleMetric(name) as Histogram<'path' | 'code'> | undefined;
  const help = 'Time to answer an admission review or a scheduler extender call, in seconds. Labeled by path and HTTP status code.';
  return existing ?? new Histogram({ name, help, labelNames: ['path', 'code'], buckets: [...RequestBuckets], registers: [r] });
}

/**
 * prom-client's Node.js process metrics (process_* memory, CPU and file descriptors; nodejs_* heap, GC, event-loop
 * lag), once per registry. Only the service calls it: each call starts an event-loop monitor for its registry.
 */
export function registerProcessMetrics(registry: Registry): void {
  if (registry.getSingleMetric('process_cpu_user_seconds_total')) return;
  collectDefaultMetrics({ register: registry });
}

/** `now` dates the status-condition ages (the service's clock). */
export function createMetrics(registry: Registry, now?: () => number): Metrics {
  const pods = podAndSchedulerMetrics(registry);
  return {
    registry,
    requestDuration: requestDuration(registry),
    ...nodeClaimAndNodeMetrics(registry),
    ...pods,
    podStartup: podStartupTracker(pods.podsStartupDuration),
    ...disruptionMetrics(registry),
    ...nodePoolAndStateMetrics(registry),
    nodeResources: nodeResourceMetrics(registry),
    cluster: clusterMetrics(registry, now),
    conditionTransitions: conditionTransitions(registry),
    reconciles: reconcileMetrics(registry),
    cloudProvider: cloudProviderMetrics(registry),
  };
}
