/**
 * Manifest objects (as `plan -f` reads them) → a SchedulingInput: Pods (pending, or bound to a Node of the
 * input), workloads expanded to pods, DaemonSets, Nodes, NodePools with the instance types their NodeClass
 * offers, as the input's NodeOverlays make the simulation see them, and the DRA objects (resource.k8s.io/v1)
 * pods' resource claims are read against. Pure: the caller injects how a NodeClass becomes instance types (bundled or live catalogs). Bad
 * objects become per-object errors and are left out; the rest is still planned.
 */
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { LabelHostname, LabelNodePool, LabelTopologyZone } from '../../apis/v1/labels.js';
import type { InstanceType, RequirementSpec } from '../instancetypes/types.js';
import { applyNodeOverlays, type NodeOverlayLike } from '../nodeoverlay/apply.js';
import { parseResourceList } from '../quantity/index.js';
import { type NodePoolUsage, parseLimits, usageAsResourceList, usageByNodePool, usageCapacity } from '../nodepool/limits.js';
import type { Taint } from '../requirements/index.js';
import type { DraObjects } from '../dra/index.js';
import { daemonSetPod, expandWorkload, isWorkloadKind } from '../workloads/index.js';
import { compilePod } from './pod-info.js';
import type { ExistingNode, PodLike, SchedulingInput, SchedulingNodePool } from './types.js';

export interface ManifestEntry {
  source: string;
  object: Record<string, unknown>;
}

export interface NodeClassObject {
  kind: string;
  name: string;
  spec: Record<string, unknown>;
}

/** Instance types a NodeClass offers, or an Error saying why none (unknown region, cloud…). */
export type InstanceTypeResolver = (nodeClass: NodeClassObject) => InstanceType[];

export interface ObjectError {
  source: string;
  message: string;
}

export const NodeClassKinds = ['OVHNodeClass', 'ScalewayNodeClass', 'OutscaleNodeClass'];

interface Collected {
  pods: PodLike[];
  bound: Map<string, PodLike[]>; // node name -> pods bound there
  daemonSets: PodLike[];
  nodes: V1Node[];
  nodePools: { source: string; object: Record<string, unknown> }[];
  nodeClasses: Map<string, NodeClassObject>; // `Kind/name` -> NodeClass
  nodeOverlays: NodeOverlayLike[];
  dra: Required<{ [K in keyof DraObjects]: NonNullable<DraObjects[K]>[number][] }>;
}

/** resource.k8s.io kinds → where they are collected. */
const draKinds: Readonly<Record<string, keyof Collected['dra']>> = {
  ResourceClaim: 'resourceClaims',
  ResourceClaimTemplate: 'resourceClaimTemplates',
  DeviceClass: 'deviceClasses',
  ResourceSlice: 'resourceSlices',
};

function nameOf(object: Record<string, unknown>): string {
  return String((object.metadata as { name?: unknown } | undefined)?.name ?? '(unnamed)');
}

function collectOne(entry: ManifestEntry, into: Collected): void {
  const { object } = entry;
  const kind = object.kind;
  if (kind === 'Pod') {
    const pod = object as V1Pod;
    compilePod(pod); // surfaces malformed quantities and selectors as this object's error
    const node = pod.spec?.nodeName;
    if (node) into.bound.set(node, [...(into.bound.get(node) ?? []), pod]);
    else into.pods.push(pod);
  } else if (isWorkloadKind(kind)) {
    const pods = expandWorkload(object);
    for (const pod of pods) compilePod(pod);
    into.pods.push(...pods);
  } else if (kind === 'DaemonSet') into.daemonSets.push(daemonSetPod(object));
  else if (kind === 'Node') into.nodes.push(object as V1Node);
  else if (kind === 'NodePool') into.nodePools.push(entry);
  else if (kind === 'NodeOverlay') into.nodeOverlays.push(object as unknown as NodeOverlayLike);
  else if (typeof kind === 'string' && Object.hasOwn(draKinds, kind))
    (into.dra[draKinds[kind] as keyof Collected['dra']] as unknown[]).push(object);
  else if (typeof kind === 'string' && NodeClassKinds.includes(kind)) {
    into.nodeClasses.set(`${kind}/${nameOf(object)}`, { kind, name: nameOf(object), spec: (object.spec ?? {}) as Record<string, unknown> });
  } else
    throw new Error(
      `kind ${JSON.stringify(kind)} is not planned; accepted: Pod, Deployment, StatefulSet, ReplicaSet, Job, DaemonSet, Node, NodePool, NodeOverlay, ${NodeClassKinds.join(', ')}, ${Object.keys(draKinds).join(', ')}`,
    );
}

function existingNode(node: V1Node, bound: Map<string, PodLike[]>): ExistingNode {
  const name = node.metadata?.name ?? '';
  return {
    name,
    labels: { [LabelHostname]: name, ...(node.metadata?.labels ?? {}) },
    taints: (node.spec?.taints ?? []) as Taint[],
    allocatable: parseResourceList(node.status?.allocatable ?? node.status?.capacity),
    pods: bound.get(name) ?? [],
    markedForDeletion: node.metadata?.deletionTimestamp !== undefined,
  };
}

interface NodePoolObject {
  metadata?: { name?: string };
  spec?: {
    weight?: number;
    limits?: Record<string, string | number>;
    template?: {
      metadata?: { labels?: Record<string, string> };
      spec?: {
        nodeClassRef?: { group?: string; kind?: string; name?: string };
        requirements?: RequirementSpec[];
        taints?: Taint[];
        startupTaints?: Taint[];
      };
    };
  };
}

/** NodeClass zones (Scaleway `zones`, Outscale subnets' subregions) narrow the NodePool's zones. */
function nodeClassZones(nodeClass: NodeClassObject): string[] | undefined {
  const spec = nodeClass.spec as { zones?: string[]; zone?: string; subnets?: { subregion: string }[] };
  if (Array.isArray(spec.zones) && spec.zones.length > 0) return spec.zones;
  if (typeof spec.zone === 'string') return [spec.zone];
  if (Array.isArray(spec.subnets) && spec.subnets.length > 0) return spec.subnets.map((s) => s.subregion);
  return undefined;
}

/** The NodePool's NodeClass reference and the class itself, which must be among the input's objects. */
function referencedNodeClass(
  np: NodePoolObject,
  name: string,
  classes: Map<string, NodeClassObject>,
): { ref: SchedulingNodePool['nodeClassRef']; nodeClass: NodeClassObject } {
  const ref = np.spec?.template?.spec?.nodeClassRef;
  if (!ref?.kind || !ref.name) throw new Error(`NodePool ${name}: spec.template.spec.nodeClassRef needs kind and name`);
  const nodeClass = classes.get(`${ref.kind}/${ref.name}`);
  if (!nodeClass) throw new Error(`NodePool ${name}: NodeClass ${ref.kind}/${ref.name} is not in the input`);
  return { ref: { ...(ref.group ? { group: ref.group } : {}), kind: ref.kind, name: ref.name }, nodeClass };
}

function schedulingNodePool(
  entry: ManifestEntry,
  collected: Collected,
  resolve: InstanceTypeResolver,
  usage: Record<string, NodePoolUsage>,
): SchedulingNodePool {
  const classes = collected.nodeClasses;
  const np = entry.object as NodePoolObject;
  const name = np.metadata?.name ?? '(unnamed)';
  const template = np.spec?.template?.spec;
  const { ref, nodeClass } = referencedNodeClass(np, name, classes);
  const requirements = [...(template?.requirements ?? [])];
  const zones = nodeClassZones(nodeClass);
  if (zones) requirements.push({ key: LabelTopologyZone, operator: 'In', values: zones });
  const labels = np.spec?.template?.metadata?.labels ?? {};
  return {
    name,
    weight: np.spec?.weight,
    nodeClassRef: ref,
    requirements,
    labels,
    taints: template?.taints ?? [],
    startupTaints: template?.startupTaints ?? [],
    limits: parseLimits(np.spec?.limits),
    usage: usageAsResourceList(usage[name]),
    instanceTypes: applyNodeOverlays(resolve(nodeClass), { name, labels }, collected.nodeOverlays),
  };
}

/** Builds the input; `errors` lists every object left out and why. */
export function schedulingInputFromManifests(
  entries: readonly ManifestEntry[],
  resolve: InstanceTypeResolver,
): { input: SchedulingInput; errors: ObjectError[] } {
  const collected: Collected = {
    pods: [],
    bound: new Map(),
    daemonSets: [],
    nodes: [],
    nodePools: [],
    nodeClasses: new Map(),
    nodeOverlays: [],
    dra: { resourceClaims: [], resourceClaimTemplates: [], deviceClasses: [], resourceSlices: [] },
  };
  const errors: ObjectError[] = [];
  const guard = (source: string, run: () => void): void => {
    try {
      run();
    } catch (error) {
      errors.push({ source, message: error instanceof Error ? error.message : String(error) });
    }
  };
  for (const entry of entries) guard(entry.source, () => collectOne(entry, collected));
  const nodePools: SchedulingNodePool[] = [];
  // The NodePool's Nodes in the input use part of its limits, as they do in the cluster.
  const usage = usageByNodePool(
    collected.nodes.map((n) => ({ nodePool: n.metadata?.labels?.[LabelNodePool], capacity: usageCapacity(n.status?.capacity, undefined) })),
  );
  for (const entry of collected.nodePools) guard(entry.source, () => nodePools.push(schedulingNodePool(entry, collected, resolve, usage)));
  const existingNodes = collected.nodes.map((n) => existingNode(n, collected.bound));
  return { input: { pods: collected.pods, existingNodes, nodePools, daemonSets: collected.daemonSets, dra: collected.dra }, errors };
}
