/** kube-scheduler's NodeInfo: a Node with the pods bound to it, what they request and the host ports they hold. */
import { type V1Node, type V1Pod } from '@kubernetes/client-node';
import { type ResourceList } from '../../../domain/instancetypes/types.js';
import { podHostPorts, podSchedulingRequests, type HostPort } from '../../../domain/pods/index.js';
import { addResources, parseResourceList } from '../../../domain/quantity/index.js';

export interface NodeInfo {
  name: string;
  node: V1Node;
  labels: Record<string, string>;
  allocatable: ResourceList;
  pods: V1Pod[];
  requested: ResourceList;
  usedPorts: HostPort[];
}

// Cache objects are replaced, never mutated, on update: parsed figures can be kept per object.
const podFigures = new WeakMap<V1Pod, { requests: ResourceList; ports: HostPort[] }>();
const nodeAllocatable = new WeakMap<V1Node, ResourceList>();

function figuresOf(pod: V1Pod): { requests: ResourceList; ports: HostPort[] } {
  let figures = podFigures.get(pod);
  if (!figures) {
    figures = { requests: podSchedulingRequests(pod), ports: podHostPorts(pod) };
    podFigures.set(pod, figures);
  }
  return figures;
}

function allocatableOf(node: V1Node): ResourceList {
  let allocatable = nodeAllocatable.get(node);
  if (!allocatable) {
    allocatable = parseResourceList(node.status?.allocatable);
    nodeAllocatable.set(node, allocatable);
  }
  return allocatable;
}

/** Pods that still hold resources: bound, not finished. */
export function holdsResources(pod: V1Pod): boolean {
  const phase = pod.status?.phase;
  return Boolean(pod.spec?.nodeName) && phase !== 'Succeeded' && phase !== 'Failed';
}

export function buildNodeInfos(nodes: Iterable<V1Node>, pods: Iterable<V1Pod>): Map<string, NodeInfo> {
  const infos = new Map<string, NodeInfo>();
  for (const node of nodes) {
    const name = node.metadata?.name ?? '';
    infos.set(name, {
      name,
      node,
      labels: node.metadata?.labels ?? {},
      allocatable: allocatableOf(node),
      pods: [],
      requested: {},
      usedPorts: [],
    });
  }
  for (const pod of pods) {
    if (!holdsResources(pod)) continue;
    const info = infos.get(pod.spec?.nodeName ?? '');
    if (info) addPod(info, pod);
  }
  return infos;
}

/** Accounts a pod on a node (also used right after binding, before the watch shows it: the scheduler's assume). */
export function addPod(info: NodeInfo, pod: V1Pod): void {
  const figures = figuresOf(pod);
  info.pods.push(pod);
  info.requested = addResources(info.requested, figures.requests);
  if (figures.ports.length > 0) info.usedPorts.push(...figures.ports);
}
