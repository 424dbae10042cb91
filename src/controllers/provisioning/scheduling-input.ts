/**
 * A ClusterSnapshot → the scheduling simulation's input: existing Nodes and in-flight NodeClaims as
 * capacity (in-flight ones by what they will be, not by their start-up taints), NodePools with the instance
 * types their cloud offers and their limits net of what is already used or reserved, DaemonSet overhead.
 */
import type { V1Node } from '@kubernetes/client-node';
import { LabelHostname, LabelInstanceType, LabelNodePool, type NodeClaim, type NodePool } from '../../apis/index.js';
import type { InstanceType, ResourceList } from '../../domain/instancetypes/types.js';
import { EphemeralTaintKeys, singleValuedLabels } from '../../domain/provisioning/index.js';
import { parseResourceList } from '../../domain/quantity/index.js';
import type { Taint } from '../../domain/requirements/index.js';
import { nodePoolReady } from '../../domain/nodepool/index.js';
import type { ExistingNode, RequirementSpecLike, SchedulingNodePool } from './scheduling-types.js';
import type { StateNode } from '../../state/index.js';

/** What the provisioner knows of a NodeClaim it created that state may not show with capacity yet. */
export interface InFlightClaim {
  name: string;
  nodePool: string;
  labels: Readonly<Record<string, string>>;
  allocatable: ResourceList;
  taints: readonly Taint[];
  /** State has shown it at least once: once it is missing again, it was deleted. */
  seen?: boolean;
}

function safeResources(list: Readonly<Record<string, string | number>> | undefined): ResourceList {
  try {
    return parseResourceList(list);
  } catch {
    return {};
  }
}

/** Start-up taints go away once the node is initialized; pods are planned as if they were gone. */
function steadyTaints(taints: readonly Taint[] | undefined, claim: NodeClaim | undefined): Taint[] {
  const startup = claim?.spec.startupTaints ?? [];
  return (taints ?? []).filter((t) => !EphemeralTaintKeys.includes(t.key) && !startup.some((s) => s.key === t.key && s.effect === t.effect));
}

/** An instance type's allocatable for a claim not launched yet: the cheapest of its allowed types. */
function plannedAllocatable(claim: NodeClaim, instanceTypes: ReadonlyMap<string, InstanceType>): ResourceList | undefined {
  const allowed = claim.spec.requirements.find((r) => r.key === LabelInstanceType && r.operator === 'In')?.values ?? [];
  for (const name of allowed) {
    const type = instanceTypes.get(name);
    if (type) return type.allocatable;
  }
  return undefined;
}

export function existingNodeOf(n: StateNode, inFlight: ReadonlyMap<string, InFlightClaim>, instanceTypes: ReadonlyMap<string, InstanceType>): ExistingNode | undefined {
  const claim = n.nodeClaim;
  if (n.node) return nodeBacked(n, n.node, claim);
  if (!claim) return undefined;
  const known = inFlight.get(n.name);
  const allocatable = claim.status?.allocatable ? safeResources(claim.status.allocatable) : (known?.allocatable ?? plannedAllocatable(claim, instanceTypes));
  if (!allocatable) return undefined;
  const labels = { ...singleValuedLabels(claim.spec.requirements as RequirementSpecLike[]), ...(claim.metadata?.labels ?? {}), [LabelHostname]: n.name };
  return {
    name: n.name,
    labels,
    taints: (claim.spec.taints ?? []) as Taint[],
    allocatable,
    pods: [],
    markedForDeletion: n.markedForDeletion,
    inFlight: true,
    nodePool: n.nodePool,
  };
}

function nodeBacked(n: StateNode, node: V1Node, claim: NodeClaim | undefined): ExistingNode {
  const taints = (node.spec?.taints ?? []) as Taint[];
  return {
    name: n.name,
    labels: { [LabelHostname]: n.name, ...(node.metadata?.labels ?? {}) },
    // A managed node that is still starting keeps only the taints it will have once initialized.
    taints: claim && !n.initialized ? steadyTaints(taints, claim) : taints,
    allocatable: safeResources(node.status?.allocatable ?? node.status?.capacity),
    pods: n.pods,
    markedForDeletion: n.markedForDeletion,
    inFlight: claim !== undefined && !n.initialized,
    nodePool: n.nodePool,
  };
}

/** In-flight claims this process created that state does not show yet (informer lag). */
export function unseenInFlight(inFlight: ReadonlyMap<string, InFlightClaim>, seen: ReadonlySet<string>): ExistingNode[] {
  const out: ExistingNode[] = [];
  for (const c of inFlight.values()) {
    if (seen.has(c.name)) continue;
    out.push({
      name: c.name,
      labels: { ...c.labels, [LabelHostname]: c.name, [LabelNodePool]: c.nodePool },
      taints: [...c.taints],
      allocatable: c.allocatable,
      pods: [],
      inFlight: true,
      nodePool: c.nodePool,
    });
  }
  return out;
}

/** A NodePool the simulation may open claims in; undefined for static, deleting or not Ready ones (as upstream). */
export function schedulingNodePool(nodePool: NodePool, instanceTypes: readonly InstanceType[], usage: ResourceList): SchedulingNodePool | undefined {
  if (nodePool.metadata?.deletionTimestamp || nodePool.spec.replicas !== undefined || !nodePoolReady(nodePool)) return undefined;
  const template = nodePool.spec.template;
  const ref = template.spec.nodeClassRef;
  return {
    name: nodePool.metadata?.name ?? '',
    weight: nodePool.spec.weight,
    nodeClassRef: { ...(ref.group ? { group: ref.group } : {}), kind: ref.kind, name: ref.name },
    requirements: template.spec.requirements as RequirementSpecLike[],
    labels: template.metadata?.labels ?? {},
    taints: (template.spec.taints ?? []) as Taint[],
    startupTaints: (template.spec.startupTaints ?? []) as Taint[],
    limits: safeResources(nodePool.spec.limits),
    usage,
    instanceTypes,
  };
}
