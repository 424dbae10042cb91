/** get / update / delete of one server, its user data and private NICs. */
import { invalidArgument, invalidRequest, notFound, transientState } from './api-error.js';
import { callerOf, type EmulatorContext, type RequestContext } from './context.js';
import { isTransient } from './lifecycle.js';
import type { ServerRecord } from './records.js';
import { parseJsonObject, type Reply } from './http-io.js';
import { paginate } from './pagination.js';
import { UUID_PATTERN } from './ids.js';
import { privateNicWire, serverWire } from './wire.js';

const USER_DATA_KEY = /^[A-Za-z0-9_.-]{1,64}$/;

export function serverOf(emu: EmulatorContext, req: RequestContext): ServerRecord {
  return emu.store.getServer(req.zone, req.params.serverId ?? '', req.now, callerOf(req).projectId);
}

export function getServer(emu: EmulatorContext, req: RequestContext): Reply {
  return { status: 200, json: { server: serverWire(serverOf(emu, req)) } };
}

export function updateServer(emu: EmulatorContext, req: RequestContext): Reply {
  const server = serverOf(emu, req);
  const body = parseJsonObject(req.rawBody);
  if (body.name !== undefined && body.name !== null) {
    if (typeof body.name !== 'string' || body.name === '') throw invalidArgument('name', 'name must be a non-empty string');
    server.name = body.name;
  }
  if (body.tags !== undefined && body.tags !== null) {
    if (!Array.isArray(body.tags) || body.tags.some((t) => typeof t !== 'string'))
      throw invalidArgument('tags', 'tags must be a list of strings', 'type');
    server.tags = [...(body.tags as string[])];
  }
  for (const field of ['protected', 'dynamic_ip_required'] as const) {
    const v = body[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'boolean') throw invalidArgument(field, `${field} must be a boolean`, 'type');
    if (field === 'protected') server.protected = v;
    else server.dynamicIpRequired = v;
  }
  if (typeof body.commercial_type === 'string' && body.commercial_type !== server.commercialType) {
    if (server.state !== 'stopped') throw invalidRequest('server should be stopped to change its commercial type');
    if (!emu.zones.get(server.zone)?.flavors.has(body.commercial_type)) {
      throw invalidArgument('commercial_type', `commercial type "${body.commercial_type}" is not available in zone ${server.zone}`);
    }
    server.commercialType = body.commercial_type;
  }
  server.modifiedAt = req.now;
  return { status: 200, json: { server: serverWire(server) } };
}

/** DELETE only works on a stopped server (use the terminate action on a running one). */
export function deleteServer(emu: EmulatorContext, req: RequestContext): Reply {
  const server = serverOf(emu, req);
  if (isTransient(server.state)) throw transientState('instance_server', server.id, server.state);
  if (server.state !== 'stopped') throw invalidRequest('server should be stopped');
  if (server.protected) throw invalidRequest('server is protected, unset protected before deleting it');
  emu.store.servers.delete(server.id);
  emu.store.detachBlockVolumes(server, req.now);
  return { status: 204 };
}

function userDataKey(req: RequestContext): string {
  const key = req.params.key ?? '';
  if (!USER_DATA_KEY.test(key)) throw invalidArgument('key', `user data key "${key}" must match ${USER_DATA_KEY.source}`);
  return key;
}

export function listUserData(emu: EmulatorContext, req: RequestContext): Reply {
  return { status: 200, json: { user_data: [...serverOf(emu, req).userData.keys()].sort() } };
}

export function getUserData(emu: EmulatorContext, req: RequestContext): Reply {
  const key = userDataKey(req);
  const content = serverOf(emu, req).userData.get(key);
  if (content === undefined) throw notFound('instance_user_data', key);
  return { status: 200, text: content };
}

/** PATCH (the SDK) or PUT: the body is the raw content (`text/plain`), e.g. a cloud-config. */
export function setUserData(emu: EmulatorContext, req: RequestContext): Reply {
  const key = userDataKey(req);
  const server = serverOf(emu, req);
  server.userData.set(key, req.rawBody);
  server.modifiedAt = req.now;
  return { status: 204 };
}

export function deleteUserData(emu: EmulatorContext, req: RequestContext): Reply {
  const key = userDataKey(req);
  const server = serverOf(emu, req);
  if (!server.userData.delete(key)) throw notFound('instance_user_data', key);
  return { status: 204 };
}

export function createPrivateNic(emu: EmulatorContext, req: RequestContext): Reply {
  const server = serverOf(emu, req);
  const body = parseJsonObject(req.rawBody);
  const networkId = body.private_network_id;
  if (typeof networkId !== 'string' || !UUID_PATTERN.test(networkId)) {
    throw invalidArgument('private_network_id', 'private_network_id is required and must be a UUID', 'required');
  }
  if (server.privateNics.some((n) => n.privateNetworkId === networkId)) {
    throw invalidRequest(`server is already attached to private network ${networkId}`);
  }
  const nic = { id: emu.ids.uuid(), privateNetworkId: networkId, macAddress: emu.ids.macAddress(), createdAt: req.now };
  server.privateNics.push(nic);
  server.privateIp ??= emu.ids.privateIp();
  return { status: 201, json: { private_nic: privateNicWire(server, nic) } };
}

export function listPrivateNics(emu: EmulatorContext, req: RequestContext): Reply {
  const server = serverOf(emu, req);
  const page = paginate(server.privateNics, req.query, req.path);
  return { status: 200, json: { private_nics: page.items.map((n) => privateNicWire(server, n)) }, headers: page.headers };
}
