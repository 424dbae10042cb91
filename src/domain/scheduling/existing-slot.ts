/**
 * An existing node (or in-flight NodeClaim) as a place for pending pods: what its bound pods use, its host
 * ports, its topology domains. Used before any new capacity (they are paid for already).
 */
import { LabelHostname } from '../../apis/v1/labels.js';
import type { ResourceList } from '../instancetypes/types.js';
import { exceededResources, subtractResources } from '../quantity/index.js';
import { firstHostPortConflict, type HostPort, podHostPorts, podSchedulingRequests } from '../pods/index.js';
import { firstUntoleratedTaint, formatTaint } from '../requirements/index.js';
import type { PodInfo } from './pod-info.js';
import type { Topology } from './topology.js';
import type { ExistingNode } from './types.js';

export class ExistingSlot {
  readonly free: Record<string, number>;
  readonly hostPorts: HostPort[] = [];
  readonly placed: PodInfo[] = [];
  readonly domainOf = (key: string): string | undefined =>
    key === LabelHostname ? (this.node.labels[LabelHostname] ?? this.node.name) : this.node.labels[key];

  constructor(
    readonly node: ExistingNode,
    overhead: ResourceList,
  ) {
    let free = subtractResources(node.allocatable, overhead);
    for (const pod of node.pods) {
      free = subtractResources(free, podSchedulingRequests(pod));
      this.hostPorts.push(...podHostPorts(pod));
    }
    this.free = { ...free };
  }

  /** Why the pod cannot land here, or undefined. */
  reject(pod: PodInfo, topology: Topology): string | undefined {
    for (const name in pod.requests) {
      if ((pod.requests[name] as number) > (this.free[name] ?? 0))
        return `not enough ${exceededResources(pod.requests, this.free).join(', ')}`;
    }
    const taint = firstUntoleratedTaint(this.node.taints, pod.tolerations, ['NoSchedule', 'NoExecute']);
    if (taint) return `did not tolerate taint ${formatTaint(taint)}`;
    if (pod.hasRequirements && !pod.requirements.matchesLabels(this.node.labels)) return 'node labels do not match the pod requirements';
    if (pod.hostPorts.length > 0 && firstHostPortConflict(pod.hostPorts, this.hostPorts)) return 'host port in use';
    return topology.violation(pod, this.domainOf)?.message;
  }

  add(pod: PodInfo, topology: Topology): void {
    for (const name in pod.requests) this.free[name] = (this.free[name] ?? 0) - (pod.requests[name] as number);
    this.hostPorts.push(...pod.hostPorts);
    this.placed.push(pod);
    topology.record(pod, this.domainOf, 1);
  }
}
