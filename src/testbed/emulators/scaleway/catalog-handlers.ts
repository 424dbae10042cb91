/** Public product endpoints (no token needed), paginated by 50 as maps keyed by commercial type. */
import type { EmulatorContext, RequestContext } from './context.js';
import type { Reply } from './http-io.js';
import { paginate } from './pagination.js';
import { serverTypeWire, sortedTypes, type ZoneCatalog } from './products.js';

function zoneOf(emu: EmulatorContext, req: RequestContext): ZoneCatalog {
  const zone = emu.zones.get(req.zone);
  if (!zone) throw new Error(`routing an unknown zone ${req.zone}`);
  return zone;
}

export function listServerTypes(emu: EmulatorContext, req: RequestContext): Reply {
  const zone = zoneOf(emu, req);
  const page = paginate(sortedTypes(zone), req.query, req.path);
  const servers = Object.fromEntries(page.items.map((f) => [f.name, serverTypeWire(f, zone.region)]));
  return { status: 200, json: { servers }, headers: page.headers };
}

export function serverTypesAvailability(emu: EmulatorContext, req: RequestContext): Reply {
  const zone = zoneOf(emu, req);
  const page = paginate(sortedTypes(zone), req.query, req.path);
  const servers = Object.fromEntries(page.items.map((f) => [f.name, { availability: emu.availability.get(f.name, zone.zone) }]));
  return { status: 200, json: { servers }, headers: page.headers };
}
