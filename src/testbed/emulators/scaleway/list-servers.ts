/** `GET /instance/v1/zones/{zone}/servers` with the filters the SDK sends. */
import { invalidArgument } from './api-error.js';
import { callerOf, type EmulatorContext, type RequestContext } from './context.js';
import type { Reply } from './http-io.js';
import { paginate } from './pagination.js';
import type { ServerRecord } from './records.js';
import { serverWire } from './wire.js';

const STATES = ['running', 'stopped', 'stopped in place', 'starting', 'stopping', 'locked'];
type Filter = (s: ServerRecord) => boolean;

const csv = (v: string): string[] =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

function filtersOf(query: URLSearchParams): Filter[] {
  const filters: Filter[] = [];
  const get = (name: string): string | undefined => query.get(name) ?? undefined;
  const tags = get('tags');
  if (tags) {
    const wanted = csv(tags);
    filters.push((s) => wanted.every((t) => s.tags.includes(t)));
  }
  const state = get('state');
  if (state) {
    if (!STATES.includes(state)) throw invalidArgument('state', `state "${state}" is not one of ${STATES.join(', ')}`);
    filters.push((s) => s.state === state);
  }
  const name = get('name');
  // The API matches names by substring ("server1" finds "server100").
  if (name) filters.push((s) => s.name.includes(name));
  const project = get('project');
  if (project) filters.push((s) => s.project === project);
  const organization = get('organization');
  if (organization) filters.push((s) => s.organization === organization);
  const commercialType = get('commercial_type');
  if (commercialType) filters.push((s) => s.commercialType === commercialType);
  const privateNetwork = get('private_network');
  if (privateNetwork) filters.push((s) => s.privateNics.some((n) => n.privateNetworkId === privateNetwork));
  const privateNetworks = get('private_networks');
  if (privateNetworks) {
    const ids = csv(privateNetworks);
    filters.push((s) => s.privateNics.some((n) => ids.includes(n.privateNetworkId)));
  }
  const servers = get('servers');
  if (servers) {
    const ids = csv(servers);
    filters.push((s) => ids.includes(s.id));
  }
  const privateIp = get('private_ip');
  if (privateIp) filters.push((s) => s.privateIp === privateIp);
  if (get('with_ip') === 'true') filters.push((s) => s.publicIpAddress !== undefined);
  if (get('without_ip') === 'true') filters.push((s) => s.publicIpAddress === undefined);
  return filters;
}

export function listServers(emu: EmulatorContext, req: RequestContext): Reply {
  const caller = callerOf(req);
  const filters = filtersOf(req.query);
  const order = req.query.get('order') ?? 'creation_date_desc';
  if (order !== 'creation_date_desc' && order !== 'creation_date_asc') {
    throw invalidArgument('order', `order "${order}" is not one of creation_date_desc, creation_date_asc`);
  }
  const sign = order === 'creation_date_asc' ? 1 : -1;
  const matching = emu.store
    .visibleServers(req.zone, req.now)
    .filter((s) => s.project === caller.projectId && filters.every((f) => f(s)))
    .sort((a, b) => sign * (a.createdAt - b.createdAt) || a.id.localeCompare(b.id));
  const page = paginate(matching, req.query, req.path);
  return { status: 200, json: { servers: page.items.map(serverWire) }, headers: page.headers };
}
