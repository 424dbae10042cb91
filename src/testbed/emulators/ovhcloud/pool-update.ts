/**
 * `PUT …/nodepool/{id}` (`cloud.ProjectKubeNodePoolUpdate`): sizes, autoscaling, template and
 * `nodesToRemove` (node ids, OpenStack instance ids or `openstack:///<instanceId>` providerIDs). Fields
 * fixed at creation (name, flavorName, monthlyBilled, antiAffinity, availabilityZones) are not described
 * by the call and are refused.
 */
import { badRequest, conflict } from './api-error.js';
import { optionalBoolean, optionalInteger, optionalObject, optionalStringArray, rejectUndescribed, type Body } from './body-fields.js';
import type { EmulatorContext, RequestContext } from './context.js';
import { planLaunch } from './launch-plan.js';
import { isLive } from './lifecycle.js';
import { checkSizes, parseAutoscaling, parseFloatingIps } from './pool-create-body.js';
import { parseTemplate } from './pool-template.js';
import type { NodeRecord, PoolRecord } from './records.js';
import { providerIdOf } from './wire.js';

const UPDATE_FIELDS = [
  'desiredNodes',
  'minNodes',
  'maxNodes',
  'autoscale',
  'autoscaling',
  'attachFloatingIps',
  'template',
  'nodesToRemove',
] as const;

function resolveNodesToRemove(live: NodeRecord[], refs: string[], pool: PoolRecord): NodeRecord[] {
  const chosen = new Map<string, NodeRecord>();
  for (const ref of refs) {
    const node = live.find((n) => n.id === ref || n.instanceId === ref || providerIdOf(n.instanceId) === ref);
    if (!node)
      throw badRequest(
        `[InvalidDataError] nodesToRemove: "${ref}" is not a node id, instance id or providerID of a node of node pool ${pool.name}`,
      );
    chosen.set(node.id, node);
  }
  return [...chosen.values()];
}

/** The live node count of the cluster after this pool moves to `desired`, against the cluster cap. */
function checkClusterCap(emu: EmulatorContext, pool: PoolRecord, liveInPool: number, desired: number): void {
  const clusterLive = emu.store.liveNodesOfCluster(pool.clusterId).length;
  const after = clusterLive - liveInPool + desired;
  const cap = emu.settings.maxNodesPerCluster;
  if (desired > liveInPool && after > cap) {
    throw badRequest(`[InvalidDataError] the cluster would have ${after} nodes: a Managed Kubernetes cluster is limited to ${cap} nodes`);
  }
}

/** The pool's new desired size: given, or lowered by the nodes named for removal. */
function desiredSize(body: Body, pool: PoolRecord, liveCount: number, toRemove: NodeRecord[]): number {
  const given = optionalInteger(body, 'desiredNodes');
  if (given !== undefined) {
    if (toRemove.length > Math.max(0, liveCount - given)) {
      throw badRequest(
        `[InvalidDataError] nodesToRemove names ${toRemove.length} nodes but desiredNodes ${given} removes only ${Math.max(0, liveCount - given)} of ${liveCount}`,
      );
    }
    return given;
  }
  return toRemove.length > 0 ? liveCount - toRemove.length : pool.desiredNodes;
}

export function updatePool(emu: EmulatorContext, pool: PoolRecord, body: Body, req: RequestContext): void {
  rejectUndescribed(body, UPDATE_FIELDS);
  if (pool.deleteRequestedAt !== undefined) throw conflict(`Node pool ${pool.name} is being deleted`);
  const live = emu.store.nodesOf(pool.id).filter(isLive);
  const toRemove = resolveNodesToRemove(live, optionalStringArray(body, 'nodesToRemove') ?? [], pool);
  const desired = desiredSize(body, pool, live.length, toRemove);
  const sizes = {
    desiredNodes: desired,
    minNodes: optionalInteger(body, 'minNodes') ?? pool.minNodes,
    maxNodes: optionalInteger(body, 'maxNodes') ?? pool.maxNodes,
  };
  checkSizes(sizes, pool.antiAffinity, emu.settings.maxAntiAffinityNodes);
  checkClusterCap(emu, pool, live.length, desired);
  const template = optionalObject(body, 'template');
  const parsedTemplate = template ? parseTemplate(template) : pool.template;
  const autoscaling = parseAutoscaling(body, pool.autoscaling);
  const attachFloatingIps = parseFloatingIps(body, pool.attachFloatingIps);
  // Everything is validated: apply.
  Object.assign(pool, { minNodes: sizes.minNodes, maxNodes: sizes.maxNodes, template: parsedTemplate, autoscaling, attachFloatingIps });
  pool.autoscale = optionalBoolean(body, 'autoscale') ?? pool.autoscale;
  const plan = planLaunch(emu, {
    projectId: pool.projectId,
    flavor: pool.flavor,
    count: Math.max(0, desired - live.length),
    fault: req.fault,
    now: req.now,
  });
  emu.store.resize(pool, desired, toRemove, plan);
}
