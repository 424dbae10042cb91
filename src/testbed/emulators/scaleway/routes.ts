/** The route table: path patterns, the logical action name used by fault rules and the call log. */
import { serverAction, requestedAction } from './action-handler.js';
import { deleteBlockVolume, getBlockVolume, listBlockVolumes } from './block-handlers.js';
import { listServerTypes, serverTypesAvailability } from './catalog-handlers.js';
import type { EmulatorContext, Handler, RequestContext } from './context.js';
import { createServer, requestedCommercialType } from './create-server.js';
import { getImage, listLocalImages } from './image-handlers.js';
import { listServers } from './list-servers.js';
import {
  createPrivateNic,
  deleteServer,
  deleteUserData,
  getServer,
  getUserData,
  listPrivateNics,
  listUserData,
  setUserData,
  updateServer,
} from './server-handlers.js';

export interface Route {
  method: string;
  pattern: RegExp;
  /** Logical name for fault rules (`match.action`) and the call log. */
  action: string;
  handler: Handler;
  /** Public routes need no token. */
  public?: boolean;
  /** The zone is the `zone` query parameter (Marketplace), not a path segment. */
  zoneFromQuery?: boolean;
  /**
   * The action refined from the body (`poweron`, `terminate`…) and the commercial type a request launches,
   * so capacity faults (out-of-stock, quota) can target creates and poweron.
   */
  describe?: (emu: EmulatorContext, req: RequestContext) => { action?: string; instanceType?: string };
}

const ZONE = '(?<zone>[^/]+)';
const ID = '(?<serverId>[^/]+)';
const instance = (rest: string): RegExp => new RegExp(`^/instance/v1/zones/${ZONE}${rest}$`);

function launchedByAction(emu: EmulatorContext, req: RequestContext): { action?: string; instanceType?: string } {
  const action = requestedAction(req.rawBody) ?? 'poweron';
  const server = emu.store.servers.get(req.params.serverId ?? '');
  return { action, instanceType: action === 'poweron' ? server?.commercialType : undefined };
}

export const ROUTES: Route[] = [
  { method: 'GET', pattern: instance('/products/servers'), action: 'listServersTypes', handler: listServerTypes, public: true },
  {
    method: 'GET',
    pattern: instance('/products/servers/availability'),
    action: 'getServerTypesAvailability',
    handler: serverTypesAvailability,
    public: true,
  },
  { method: 'GET', pattern: instance('/servers'), action: 'listServers', handler: listServers },
  {
    method: 'POST',
    pattern: instance('/servers'),
    action: 'createServer',
    handler: createServer,
    describe: (_emu, req) => ({ instanceType: requestedCommercialType(req.rawBody) }),
  },
  { method: 'GET', pattern: instance(`/servers/${ID}`), action: 'getServer', handler: getServer },
  { method: 'PATCH', pattern: instance(`/servers/${ID}`), action: 'updateServer', handler: updateServer },
  { method: 'DELETE', pattern: instance(`/servers/${ID}`), action: 'deleteServer', handler: deleteServer },
  { method: 'POST', pattern: instance(`/servers/${ID}/action`), action: 'serverAction', handler: serverAction, describe: launchedByAction },
  { method: 'GET', pattern: instance(`/servers/${ID}/user_data`), action: 'listServerUserData', handler: listUserData },
  { method: 'GET', pattern: instance(`/servers/${ID}/user_data/(?<key>[^/]+)`), action: 'getServerUserData', handler: getUserData },
  { method: 'PATCH', pattern: instance(`/servers/${ID}/user_data/(?<key>[^/]+)`), action: 'setServerUserData', handler: setUserData },
  { method: 'PUT', pattern: instance(`/servers/${ID}/user_data/(?<key>[^/]+)`), action: 'setServerUserData', handler: setUserData },
  {
    method: 'DELETE',
    pattern: instance(`/servers/${ID}/user_data/(?<key>[^/]+)`),
    action: 'deleteServerUserData',
    handler: deleteUserData,
  },
  { method: 'GET', pattern: instance(`/servers/${ID}/private_nics`), action: 'listPrivateNICs', handler: listPrivateNics },
  { method: 'POST', pattern: instance(`/servers/${ID}/private_nics`), action: 'createPrivateNIC', handler: createPrivateNic },
  { method: 'GET', pattern: instance('/images/(?<imageId>[^/]+)'), action: 'getImage', handler: getImage },
  { method: 'GET', pattern: /^\/marketplace\/v2\/local-images$/, action: 'listLocalImages', handler: listLocalImages, zoneFromQuery: true },
  { method: 'GET', pattern: new RegExp(`^/block/v1alpha1/zones/${ZONE}/volumes$`), action: 'listVolumes', handler: listBlockVolumes },
  {
    method: 'GET',
    pattern: new RegExp(`^/block/v1alpha1/zones/${ZONE}/volumes/(?<volumeId>[^/]+)$`),
    action: 'getVolume',
    handler: getBlockVolume,
  },
  {
    method: 'DELETE',
    pattern: new RegExp(`^/block/v1alpha1/zones/${ZONE}/volumes/(?<volumeId>[^/]+)$`),
    action: 'deleteVolume',
    handler: deleteBlockVolume,
  },
];

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

/** The matching route, or `methodNotAllowed` when the path exists under another method. */
export function matchRoute(method: string, path: string): RouteMatch | 'methodNotAllowed' | undefined {
  let pathKnown = false;
  for (const route of ROUTES) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    pathKnown = true;
    if (route.method !== method) continue;
    const params = Object.fromEntries(Object.entries(m.groups ?? {}).map(([k, v]) => [k, safeDecode(v)]));
    return { route, params };
  }
  return pathKnown ? 'methodNotAllowed' : undefined;
}
