/**
 * How a termination tells the world: one reason, carried by every Event, log line and metric label.
 */
import type { V1Node } from '@kubernetes/client-node';
import { AnnotationWorkloadBound, LabelCapacityType, LabelInstanceType, LabelNodePool, LabelTopologyZone } from '../../apis/v1/labels.js';
import { NodeClaimApiVersion, NodeClaimKind, type NodeClaim } from '../../apis/v1/nodeclaim.js';
import type { EventRecorder, InvolvedObject } from '../../kube/events.js';
import type { Metrics } from '../../metrics/registry.js';

export function nodeClaimObject(nodeClaim: NodeClaim): InvolvedObject {
  const object: InvolvedObject = { apiVersion: NodeClaimApiVersion, kind: NodeClaimKind, name: nodeClaim.metadata?.name ?? '' };
  if (nodeClaim.metadata?.uid) object.uid = nodeClaim.metadata.uid;
  return object;
}

export function nodeObject(node: V1Node): InvolvedObject {
  const object: InvolvedObject = { apiVersion: 'v1', kind: 'Node', name: node.metadata?.name ?? '' };
  if (node.metadata?.uid) object.uid = node.metadata.uid;
  return object;
}

export function nodePoolLabel(object: { metadata?: { labels?: Record<string, string> } } | undefined): string {
  return object?.metadata?.labels?.[LabelNodePool] ?? '';
}

function secondsSince(stamp: unknown, now: number): number | undefined {
  if (stamp === undefined || stamp === null) return undefined;
  const at = Date.parse(String(stamp));
  return Number.isNaN(at) ? undefined : Math.max(0, (now - at) / 1000);
}

export interface TerminationOutcome {
  nodeClaim: NodeClaim;
  node: V1Node | undefined;
  reason: string;
  now: number;
}

/** Counts and times a finished termination: upstream's series and labels, and ours by reason. */
export function recordTerminated(metrics: Metrics, outcome: TerminationOutcome): void {
  const nodepool = nodePoolLabel(outcome.nodeClaim);
  const claimLabels = outcome.nodeClaim.metadata?.labels ?? {};
  metrics.nodeClaimsTerminated.inc({
    nodepool,
    capacity_type: claimLabels[LabelCapacityType] ?? '',
    zone: claimLabels[LabelTopologyZone] ?? '',
  });
  metrics.nodeClaimsTerminatedByReason.inc({ reason: outcome.reason, nodepool });
  const claimSeconds = secondsSince(outcome.nodeClaim.metadata?.deletionTimestamp, outcome.now);
  if (claimSeconds !== undefined) metrics.nodeClaimsTerminationDuration.observe({ nodepool }, claimSeconds);
  if (outcome.node === undefined) return;
  metrics.nodesTerminated.inc({
    nodepool: nodePoolLabel(outcome.node) || nodepool,
    zone: outcome.node.metadata?.labels?.[LabelTopologyZone] ?? '',
  });
  // A Node not deleted by anyone yet started terminating with its NodeClaim.
  const nodeSeconds = secondsSince(outcome.node.metadata?.deletionTimestamp ?? outcome.nodeClaim.metadata?.deletionTimestamp, outcome.now);
  if (nodeSeconds !== undefined) metrics.nodesTerminationDuration.observe({ nodepool }, nodeSeconds);
}

export function publishTerminating(events: EventRecorder, nodeClaim: NodeClaim, node: V1Node | undefined, reason: string): void {
  const message = `Terminating: reason ${reason}`;
  void events.publish({ involvedObject: nodeClaimObject(nodeClaim), type: 'Normal', reason: 'Terminating', message });
  if (node) void events.publish({ involvedObject: nodeObject(node), type: 'Normal', reason: 'Terminating', message });
}

export function publishTerminated(events: EventRecorder, outcome: TerminationOutcome): void {
  const providerID = outcome.nodeClaim.status?.providerID ?? 'none';
  const message = `Terminated instance ${providerID}: reason ${outcome.reason}`;
  void events.publish({ involvedObject: nodeClaimObject(outcome.nodeClaim), type: 'Normal', reason: 'Terminated', message });
}

/** Launched, and no pod but DaemonSets' ever bound to its node: capacity paid for and never used. */
export function terminatedUnused(nodeClaim: NodeClaim): boolean {
  return nodeClaim.status?.providerID !== undefined && nodeClaim.metadata?.annotations?.[AnnotationWorkloadBound] === undefined;
}

export function reportTerminatedUnused(metrics: Metrics, events: EventRecorder, outcome: TerminationOutcome): void {
  const claim = outcome.nodeClaim;
  metrics.nodeClaimsTerminatedUnused.inc({ reason: outcome.reason, nodepool: nodePoolLabel(claim) });
  const labels = claim.metadata?.labels ?? {};
  const lived = secondsSince(claim.metadata?.creationTimestamp, outcome.now);
  const what = `${labels[LabelInstanceType] ?? 'instance'} in ${labels[LabelTopologyZone] ?? 'an unknown zone'}`;
  const message = `Terminated (reason ${outcome.reason}) without any pod other than DaemonSets' ever running on it: ${what} paid for ${lived === undefined ? 'an unknown time' : `${Math.round(lived / 60)} min`} and never used`;
  void events.publish({ involvedObject: nodeClaimObject(claim), type: 'Warning', reason: 'TerminatedUnused', message });
}

export function publishDrainBlocked(events: EventRecorder, node: V1Node, pods: readonly string[], why: string): void {
  const shown = pods.slice(0, 5).join(', ') + (pods.length > 5 ? ` and ${pods.length - 5} more` : '');
  void events.publish({
    involvedObject: nodeObject(node),
    type: 'Warning',
    reason: 'FailedDraining',
    message: `Draining waits for ${shown}: ${why}`,
  });
}

export function publishCloudDeleteFailed(events: EventRecorder, nodeClaim: NodeClaim, error: unknown, retryInMs: number): void {
  const detail = error instanceof Error ? error.message : String(error);
  const message = `Deleting instance ${nodeClaim.status?.providerID ?? ''} failed, retrying in ${Math.ceil(retryInMs / 1000)}s: ${detail}`;
  void events.publish({ involvedObject: nodeClaimObject(nodeClaim), type: 'Warning', reason: 'FailedTerminating', message });
}

/** Upstream's AwaitingVolumeDetachment: the node is drained, its instance waits for the CSI driver to detach. */
export function publishAwaitingVolumeDetachment(events: EventRecorder, node: V1Node, attachments: readonly string[]): void {
  const shown = attachments.slice(0, 5).join(', ') + (attachments.length > 5 ? ` and ${attachments.length - 5} more` : '');
  void events.publish({
    involvedObject: nodeObject(node),
    type: 'Normal',
    reason: 'AwaitingVolumeDetachment',
    message: `Awaiting deletion of bound VolumeAttachments (${shown})`,
  });
}
