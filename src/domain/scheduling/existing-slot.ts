/**
 * An existing node (or in-flight NodeClaim) as a place for pending pods: what its bound pods use, its host
 * ports, its topology domains, its free DRA devices. Used before any new capacity (they are paid for already).
 */
import { LabelHostname } from '../../apis/v1/labels.js';
import type { ResourceList } from '../instancetypes/types.js';
import { exceededResources, subtractResources } from '../quantity/index.js';
import { firstHostPortConflict, type HostPort, podHostPorts, podSchedulingRequests } from '../pods/index.js';
import { firstUntoleratedTaint, formatTaint } from '../requirements/index.js';
import type { PodInfo } from './pod-info.js';
import type { Topology } from './topology.js';
import type { ExistingNode } from './types.js';
import type { NodeDevices, PodClaim } from '../dra/index.js';

const noClaims: readonly PodClaim[] = [];
const noDevices: readonly NodeDevices[] = [{ devices: [], taken: new Set() }];

export class ExistingSlot {
  readonly free: Record<string, number>;
  readonly hostPorts: HostPort[] = [];
  readonly placed: PodInfo[] = [];
  /** Per device option, the ids allocated on the node: in claim statuses, then to the pods this solve places here. */
  private readonly taken: Set<string>[];
  readonly domainOf = (key: string): string | undefined =>
    key === LabelHostname ? (this.node.labels[LabelHostname] ?? this.node.name) : this.node.labels[key];

  constructor(
    readonly node: ExistingNode,
    overhead: ResourceList,
    private readonly devices: readonly NodeDevices[] = noDevices,
  ) {
    this.taken = devices.map((d) => new Set(d.taken));
    let free = subtractResources(node.allocatable, overhead);
    for (const pod of node.pods) {
      free = subtractResources(free, podSchedulingRequests(pod));
      this.hostPorts.push(...podHostPorts(pod));
    }
    this.free = { ...free };
  }

  /** The slot as DRA claim homes name it. */
  get id(): string {
    return `node/${this.node.name}`;
  }

  /** Why the pod cannot land here, or undefined. `need`: its DRA claims the node must allocate. */
  reject(pod: PodInfo, topology: Topology, need: readonly PodClaim[] = pod.dra?.claims ?? noClaims): string | undefined {
    for (const name in pod.requests) {
      if ((pod.requests[name] as number) > (this.free[name] ?? 0))
        return `not enough ${exceededResources(pod.requests, this.free).join(', ')}`;
    }
    const taint = firstUntoleratedTaint(this.node.taints, pod.tolerations, ['NoSchedule', 'NoExecute']);
    if (taint) return `did not tolerate taint ${formatTaint(taint)}`;
    if (pod.hasRequirements && !pod.requirements.matchesLabels(this.node.labels)) return 'node labels do not match the pod requirements';
    if (pod.hostPorts.length > 0 && firstHostPortConflict(pod.hostPorts, this.hostPorts)) return 'host port in use';
    const violation = topology.violation(pod, this.domainOf)?.message;
    if (violation !== undefined || need.length === 0) return violation;
    return this.allocations(pod, need) ? undefined : "its free devices cannot allocate the pod's resource claims";
  }

  /** Per device option, the ids the claims would take; undefined when some option cannot allocate them. */
  private allocations(pod: PodInfo, need: readonly PodClaim[]): string[][] | undefined {
    const out: string[][] = [];
    for (let i = 0; i < this.devices.length; i++) {
      const option = this.devices[i] as NodeDevices;
      const ids = pod.dra && option.devices.length > 0 ? pod.dra.context.allocateOn(option, this.taken[i] as Set<string>, need) : undefined;
      if (!ids) return undefined;
      out.push(ids);
    }
    return out;
  }

  add(pod: PodInfo, topology: Topology, need: readonly PodClaim[] = pod.dra?.claims ?? noClaims): void {
    if (need.length > 0) (this.allocations(pod, need) ?? []).forEach((ids, i) => ids.forEach((id) => this.taken[i]?.add(id)));
    for (const name in pod.requests) this.free[name] = (this.free[name] ?? 0) - (pod.requests[name] as number);
    this.hostPorts.push(...pod.hostPorts);
    this.placed.push(pod);
    topology.record(pod, this.domainOf, 1);
  }
}
