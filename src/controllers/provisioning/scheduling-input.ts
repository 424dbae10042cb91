/**
 * A ClusterSnapshot → the scheduling simulation's input: existing Nodes and in-flight NodeClaims as
 * capacity (by the rule consolidation shares, domain/provisioning/existing-capacity.ts), NodePools with the instance
 * types their cloud offers and their limits net of what is already used or reserved, DaemonSet overhead.
 */
import type { NodeClaim, NodePool } from '../../apis/index.js';
import type { InstanceType, ResourceList } from '../../domain/instancetypes/types.js';
import { existingCapacity, type InstanceTypeLookup } from '../../domain/provisioning/index.js';
import { parseLimits } from '../../domain/nodepool/index.js';
import type { Taint } from '../../domain/requirements/index.js';
import { nodePoolReady } from '../../domain/nodepool/status.js';
import type { ExistingNode, RequirementSpecLike, SchedulingNodePool } from './scheduling-types.js';
import type { StateNode } from '../../state/index.js';

/**
 * The NodePool's `spec.limits`, parsed by the one limits rule (domain/nodepool/limits.ts). Admission and the
 * CRD schema refuse a malformed quantity; one that got past them anyway counts as no limit, as before.
 */
export function nodePoolLimits(nodePool: NodePool): ResourceList {
  try {
    return parseLimits(nodePool.spec.limits);
  } catch {
    return {};
  }
}

/** A NodeClaim this process created, which state may not show yet (the NodeClaim watch lags the create). */
export interface InFlightClaim {
  name: string;
  nodePool: string;
  /** The object the API server returned from the create. */
  claim: NodeClaim;
  /** State has shown it at least once: once it is missing again, it was deleted. */
  seen?: boolean;
}

/** Each state node as capacity for the simulation (one rule with consolidation: existing-capacity.ts). */
export function existingNodesOf(nodes: readonly StateNode[], typeNamed: InstanceTypeLookup): ExistingNode[] {
  return nodes.flatMap((n) => existingCapacity(n, typeNamed) ?? []);
}

/** In-flight claims this process created that state does not show yet (informer lag), as the same capacity. */
export function unseenInFlight(
  inFlight: ReadonlyMap<string, InFlightClaim>,
  seen: ReadonlySet<string>,
  typeNamed: InstanceTypeLookup,
): ExistingNode[] {
  const out: ExistingNode[] = [];
  for (const c of inFlight.values()) {
    if (seen.has(c.name)) continue;
    const capacity = existingCapacity({ name: c.name, nodeClaim: c.claim, nodePool: c.nodePool, pods: [], initialized: false }, typeNamed);
    if (capacity) out.push(capacity);
  }
  return out;
}

/** A NodePool the simulation may open claims in; undefined for static, deleting or not Ready ones (as upstream). */
export function schedulingNodePool(
  nodePool: NodePool,
  instanceTypes: readonly InstanceType[],
  usage: ResourceList,
): SchedulingNodePool | undefined {
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
    limits: nodePoolLimits(nodePool),
    usage,
    instanceTypes,
  };
}
