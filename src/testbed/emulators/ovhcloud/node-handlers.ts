/**
 * Node routes: `…/nodepool/{id}/nodes`, `…/node`, `…/node/{nodeId}` GET and DELETE. Deleting a node lowers
 * its pool's desiredNodes by one, as the API documents. `?history=true` also lists DELETED nodes.
 */
import { badRequest } from './api-error.js';
import type { Handler } from './context.js';
import { isLive } from './lifecycle.js';
import { clusterOf, listedNodes, nodeOf, poolOf } from './scope.js';
import { nodeToWire } from './wire.js';

function historyFlag(query: URLSearchParams): boolean {
  const raw = query.get('history');
  if (raw === null || raw === 'false') return false;
  if (raw === 'true') return true;
  throw badRequest(`Invalid value for parameter history: ${JSON.stringify(raw)}; accepted: true, false`);
}

export const listPoolNodes: Handler = (emu, req) => {
  const cluster = clusterOf(emu, req);
  const pool = poolOf(emu, cluster, req);
  const nodes = listedNodes(emu, emu.store.nodesOf(pool.id), req.now, historyFlag(req.query));
  return { status: 200, json: nodes.map((n) => nodeToWire(n, req.now)) };
};

export const listClusterNodes: Handler = (emu, req) => {
  const cluster = clusterOf(emu, req);
  emu.store.settle(req.now);
  const all = [...emu.store.nodes.values()].filter((n) => n.clusterId === cluster.id);
  const nodes = listedNodes(emu, all, req.now, historyFlag(req.query));
  return { status: 200, json: nodes.map((n) => nodeToWire(n, req.now)) };
};

export const getNode: Handler = (emu, req) => {
  const cluster = clusterOf(emu, req);
  return { status: 200, json: nodeToWire(nodeOf(emu, cluster, req), req.now) };
};

export const deleteNode: Handler = (emu, req) => {
  const cluster = clusterOf(emu, req);
  const node = nodeOf(emu, cluster, req);
  if (!isLive(node)) return { status: 200, json: null };
  const pool = emu.store.pools.get(node.poolId);
  if (pool && pool.deleteRequestedAt === undefined) {
    pool.desiredNodes = Math.max(0, pool.desiredNodes - 1);
    pool.minNodes = Math.min(pool.minNodes, pool.desiredNodes);
    pool.updatedAt = req.now;
  }
  emu.store.removeNodes([node], req.now);
  return { status: 200, json: null };
};
