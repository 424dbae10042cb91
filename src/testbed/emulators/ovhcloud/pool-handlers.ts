/** Node pool routes: list, create, get, update, delete. Every success is a 200 (void calls answer null). */
import { conflict, badRequest } from './api-error.js';
import type { EmulatorContext, Handler, RequestContext } from './context.js';
import { parseJsonObject } from './http-io.js';
import { planLaunch } from './launch-plan.js';
import { parseCreateBody } from './pool-create-body.js';
import { updatePool } from './pool-update.js';
import type { ClusterRecord } from './records.js';
import { clusterOf, poolOf, visiblePools } from './scope.js';
import { poolToWire } from './wire.js';

function checkClusterCap(emu: EmulatorContext, cluster: ClusterRecord, adding: number): void {
  const after = emu.store.liveNodesOfCluster(cluster.id).length + adding;
  const cap = emu.settings.maxNodesPerCluster;
  if (adding > 0 && after > cap) {
    throw badRequest(`[InvalidDataError] the cluster would have ${after} nodes: a Managed Kubernetes cluster is limited to ${cap} nodes`);
  }
}

function takeNodeListingDelay(emu: EmulatorContext): number {
  return emu.settings.pendingNodeListingDelays.shift() ?? 0;
}

export const listPools: Handler = (emu, req) => {
  const cluster = clusterOf(emu, req);
  const pools = visiblePools(emu, cluster, req.now);
  return { status: 200, json: pools.map((p) => poolToWire(p, emu.store.nodesOf(p.id), req.now)) };
};

export const getPool: Handler = (emu, req) => {
  const cluster = clusterOf(emu, req);
  const pool = poolOf(emu, cluster, req);
  return { status: 200, json: poolToWire(pool, emu.store.nodesOf(pool.id), req.now) };
};

export const createPool: Handler = (emu, req) => {
  const cluster = clusterOf(emu, req);
  const draft = parseCreateBody(emu, cluster, parseJsonObject(req.rawBody));
  emu.store.settle(req.now);
  const taken = [...emu.store.pools.values()].some((p) => p.clusterId === cluster.id && p.name === draft.name);
  if (taken) throw conflict(`A node pool named ${draft.name} already exists in cluster ${cluster.id}`);
  checkClusterCap(emu, cluster, draft.desiredNodes);
  const plan = planLaunch(emu, {
    projectId: cluster.serviceName,
    flavor: draft.flavor,
    count: draft.desiredNodes,
    fault: req.fault,
    now: req.now,
  });
  const pool = emu.store.createPool(draft, plan, {
    consistencyMs: emu.settings.consistencyDelayMs,
    nodeListingMs: takeNodeListingDelay(emu),
  });
  return { status: 200, json: poolToWire(pool, emu.store.nodesOf(pool.id), req.now) };
};

export const updatePoolHandler: Handler = (emu, req: RequestContext) => {
  const cluster = clusterOf(emu, req);
  const pool = poolOf(emu, cluster, req);
  updatePool(emu, pool, parseJsonObject(req.rawBody), req);
  return { status: 200, json: null };
};

export const deletePool: Handler = (emu, req) => {
  const cluster = clusterOf(emu, req);
  const pool = poolOf(emu, cluster, req);
  if (pool.deleteRequestedAt === undefined) emu.store.deletePool(pool, req.now);
  return { status: 200, json: null };
};
