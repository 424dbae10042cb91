/**
 * One request through the emulator: route, authenticate (`x-auth-token` = secret key), check the zone,
 * ask the fault injector, render the fault in Scaleway's wire format or run the handler, log the call.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DropConnection, dropConnection, type FaultLog, openExchange, replyFaultTookOver, triageFault } from '../fault-pipeline.js';
import { type BodyFault, type CallLog, damagedBody, type Fault, type FaultInjector, type RequestInfo } from '../faults.js';
import {
  ScalewayApiError,
  deniedAuthentication,
  invalidArgument,
  invalidRequest,
  outOfStock,
  quotaResourceName,
  quotasExceeded,
  serverError,
  tooManyRequests,
} from './api-error.js';
import type { EmulatorContext, RequestContext, ScalewayCredential } from './context.js';
import { errorReply, readBody, writeReply, type Reply } from './http-io.js';
import { UUID_PATTERN } from './ids.js';
import { matchRoute } from './routes.js';

export interface PipelineDeps {
  emu: EmulatorContext;
  faults: FaultInjector;
  calls: CallLog;
  credentials: ScalewayCredential[];
  /** Aborted when the emulator closes, releasing requests held by timeout faults. */
  closing: AbortSignal;
}

function authenticate(req: IncomingMessage, credentials: ScalewayCredential[]): ScalewayCredential {
  const token = req.headers['x-auth-token'];
  if (typeof token !== 'string' || !UUID_PATTERN.test(token)) throw deniedAuthentication('invalid_argument');
  const credential = credentials.find((c) => c.secretKey === token);
  if (!credential) throw deniedAuthentication('not_found');
  return credential;
}

async function applyFault(deps: PipelineDeps, fault: Fault, ctx: RequestContext, instanceType: string | undefined): Promise<void> {
  switch (fault.kind) {
    case 'server-error':
      throw serverError(fault.status);
    case 'throttle':
      throw tooManyRequests(fault.retryAfterSeconds);
    case 'out-of-stock':
      throw outOfStock(instanceType ?? 'unknown');
    case 'quota-exceeded': {
      const type = instanceType ?? 'unknown';
      const current = [...deps.emu.store.servers.values()].filter((s) => s.commercialType === type).length;
      throw quotasExceeded(quotaResourceName(type), current, current);
    }
    case 'slow':
      await deps.emu.clock.sleep(fault.delayMs, deps.closing).catch(() => undefined);
      ctx.now = deps.emu.clock.now();
      return;
    case 'timeout':
      await deps.emu.clock.sleep(fault.afterMs, deps.closing).catch(() => undefined);
      throw new DropConnection();
    default:
      return; // body and reply faults act on the answer once the handler has run
  }
}

/**
 * A 200 JSON answer spoiled by a body fault. A short page keeps the API's headers (its `X-Total-Count`
 * still announces the whole list); the other faults come from something in front of the API and carry none.
 */
function spoiled(reply: Reply, fault: BodyFault): Reply {
  if (reply.status !== 200 || reply.json === undefined) return reply;
  const headers = fault.kind === 'short-page' || fault.kind === 'truncated-body' ? reply.headers : undefined;
  return { status: 200, rawJson: damagedBody(fault, reply.json), ...(headers ? { headers } : {}) };
}

async function route(deps: PipelineDeps, req: IncomingMessage, log: FaultLog): Promise<Reply> {
  const { emu } = deps;
  const method = (req.method ?? 'GET').toUpperCase();
  const url = new URL(req.url ?? '/', 'http://emulator.invalid');
  const rawBody = await readBody(req);
  const match = matchRoute(method, url.pathname);
  if (match === undefined)
    return { status: 404, json: { type: 'not_found', message: 'resource is not found', resource: 'route', resource_id: url.pathname } };
  if (match === 'methodNotAllowed') throw invalidRequest(`method ${method} is not allowed on ${url.pathname}`);
  log.action = match.route.action;
  const credential = match.route.public ? undefined : authenticate(req, deps.credentials);
  // The Marketplace names the zone in the query, the zoned APIs in the path.
  const zone = (match.route.zoneFromQuery ? url.searchParams.get('zone') : match.params.zone) ?? '';
  if (!emu.zones.has(zone)) throw invalidArgument('zone', `unknown zone "${zone}"; accepted: ${[...emu.zones.keys()].join(', ')}`);
  const ctx: RequestContext = {
    method,
    path: url.pathname,
    params: match.params,
    query: url.searchParams,
    rawBody,
    zone,
    credential,
    now: emu.clock.now(),
  };
  const described = match.route.describe?.(emu, ctx) ?? {};
  if (described.action) log.action = described.action;
  const request: RequestInfo = { method, path: url.pathname, action: log.action, instanceType: described.instanceType, zone };
  await triageFault(deps.faults, request, log, (fault) => applyFault(deps, fault, ctx, described.instanceType));
  return match.route.handler(emu, ctx);
}

export async function handleRequest(deps: PipelineDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const x = openExchange(req, res, deps.calls, deps.emu.clock.now(), 'GET');
  const log: FaultLog = {};
  let reply: Reply;
  try {
    reply = await route(deps, req, log);
    if (log.bodyFault) reply = spoiled(reply, log.bodyFault);
  } catch (err) {
    if (err instanceof DropConnection) return dropConnection(x, log);
    // Anything but an API error is an emulator bug: answer like the API's own internal error.
    reply = err instanceof ScalewayApiError ? errorReply(err) : errorReply(serverError(500));
  }
  const payload = (): string => (reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? ''));
  if (await replyFaultTookOver(x, log, reply.status, payload)) return;
  deps.calls.add({ at: x.at, method: x.method, path: x.path, action: log.action, status: reply.status, fault: log.fault });
  if (!res.destroyed) writeReply(res, reply);
}
