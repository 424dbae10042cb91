/**
 * The API subset served, under the `/1.0` base path the `ovh` client uses. Each route has a logical
 * action name (what fault rules match) and, for launching requests, a `describe` naming the flavor and
 * zone so capacity faults can target them.
 */
import { badRequest } from './api-error.js';
import { getCluster, listCapabilityFlavors, listClusters, listCapabilityRegions, listClusterFlavors } from './cluster-handlers.js';
import type { EmulatorContext, Handler, RequestContext } from './context.js';
import { isLive } from './lifecycle.js';
import { deleteNode, getNode, listClusterNodes, listPoolNodes } from './node-handlers.js';
import { isKnownSubsidiary, orderCatalog } from './order-catalog.js';
import { createPool, deletePool, getPool, listPools, updatePoolHandler } from './pool-handlers.js';

export interface Launch {
  instanceType?: string;
  zone?: string;
}

export interface Route {
  method: string;
  pattern: string;
  action: string;
  /** Public routes take no signature (`/auth/time`, the order catalog). */
  public?: boolean;
  handler: Handler;
  describe?: (emu: EmulatorContext, req: RequestContext) => Launch;
}

const KUBE = '/cloud/project/:serviceName/kube/:kubeId';

function lenientBody(raw: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function firstZone(emu: EmulatorContext, kubeId: string | undefined, zones: unknown): string | undefined {
  if (Array.isArray(zones) && typeof zones[0] === 'string') return zones[0];
  return emu.store.clusters.get(kubeId ?? '')?.zones[0];
}

const describeCreate = (emu: EmulatorContext, req: RequestContext): Launch => {
  const body = lenientBody(req.rawBody);
  const flavor = typeof body.flavorName === 'string' ? body.flavorName : undefined;
  const desired = typeof body.desiredNodes === 'number' ? body.desiredNodes : 1;
  return desired > 0 ? { instanceType: flavor, zone: firstZone(emu, req.params.kubeId, body.availabilityZones) } : {};
};

/** A PUT launches only when it raises the pool above its live node count. */
const describeUpdate = (emu: EmulatorContext, req: RequestContext): Launch => {
  const pool = emu.store.pools.get(req.params.nodePoolId ?? '');
  const desired = lenientBody(req.rawBody).desiredNodes;
  if (!pool || typeof desired !== 'number') return {};
  const live = emu.store.nodesOf(pool.id).filter(isLive).length;
  return desired > live ? { instanceType: pool.flavor, zone: firstZone(emu, pool.clusterId, pool.availabilityZones) } : {};
};

const authTime: Handler = (emu) => ({ status: 200, json: Math.floor(emu.clock.now() / 1000) });

const publicCatalog: Handler = (emu, req) => {
  const subsidiary = req.query.get('ovhSubsidiary');
  if (subsidiary === null) throw badRequest('Missing parameter(s): ovhSubsidiary');
  if (!isKnownSubsidiary(subsidiary))
    throw badRequest(`Invalid value for parameter ovhSubsidiary: ${JSON.stringify(subsidiary)} is not a known subsidiary`);
  return { status: 200, json: orderCatalog(emu.catalog, subsidiary) };
};

export const ROUTES: Route[] = [
  { method: 'GET', pattern: '/auth/time', action: 'getAuthTime', public: true, handler: authTime },
  { method: 'GET', pattern: '/order/catalog/public/cloud', action: 'getPublicCatalog', public: true, handler: publicCatalog },
  {
    method: 'GET',
    pattern: '/cloud/project/:serviceName/capabilities/kube/flavors',
    action: 'listCapabilityFlavors',
    handler: listCapabilityFlavors,
  },
  {
    method: 'GET',
    pattern: '/cloud/project/:serviceName/capabilities/kube/regions',
    action: 'listCapabilityRegions',
    handler: listCapabilityRegions,
  },
  { method: 'GET', pattern: '/cloud/project/:serviceName/kube', action: 'listClusters', handler: listClusters },
  { method: 'GET', pattern: KUBE, action: 'getCluster', handler: getCluster },
  { method: 'GET', pattern: `${KUBE}/flavors`, action: 'listFlavors', handler: listClusterFlavors },
  { method: 'GET', pattern: `${KUBE}/nodepool`, action: 'listNodePools', handler: listPools },
  { method: 'POST', pattern: `${KUBE}/nodepool`, action: 'createNodePool', handler: createPool, describe: describeCreate },
  { method: 'GET', pattern: `${KUBE}/nodepool/:nodePoolId`, action: 'getNodePool', handler: getPool },
  {
    method: 'PUT',
    pattern: `${KUBE}/nodepool/:nodePoolId`,
    action: 'updateNodePool',
    handler: updatePoolHandler,
    describe: describeUpdate,
  },
  { method: 'DELETE', pattern: `${KUBE}/nodepool/:nodePoolId`, action: 'deleteNodePool', handler: deletePool },
  { method: 'GET', pattern: `${KUBE}/nodepool/:nodePoolId/nodes`, action: 'listNodePoolNodes', handler: listPoolNodes },
  { method: 'GET', pattern: `${KUBE}/node`, action: 'listNodes', handler: listClusterNodes },
  { method: 'GET', pattern: `${KUBE}/node/:nodeId`, action: 'getNode', handler: getNode },
  { method: 'DELETE', pattern: `${KUBE}/node/:nodeId`, action: 'deleteNode', handler: deleteNode },
];

function matchPattern(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] as string;
    const g = got[i] as string;
    if (w.startsWith(':')) {
      if (g === '') return undefined;
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        return undefined;
      }
    } else if (w !== g) {
      return undefined;
    }
  }
  return params;
}

/** The route for a path below the base path, `'methodNotAllowed'`, or undefined (unknown URL). */
export function matchRoute(
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | 'methodNotAllowed' | undefined {
  let pathMatched = false;
  for (const route of ROUTES) {
    const params = matchPattern(route.pattern, path);
    if (!params) continue;
    if (route.method === method) return { route, params };
    pathMatched = true;
  }
  return pathMatched ? 'methodNotAllowed' : undefined;
}
