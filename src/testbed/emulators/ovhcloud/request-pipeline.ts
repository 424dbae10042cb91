/**
 * One request through the emulator: route (under `/1.0`), verify the signature (except on public
 * routes), ask the fault injector, render the fault the way OVH does or run the handler, log the call.
 * Capacity faults are not HTTP errors on MKS: they reach the handler and show as node statuses.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DropConnection, dropConnection, type FaultLog, openExchange, replyFaultTookOver, triageFault } from '../fault-pipeline.js';
import { type BodyFault, type CallLog, damagedBody, type Fault, type FaultInjector, type RequestInfo } from '../faults.js';
import { OvhApiError, invalidUrl, methodNotAllowed, serverError, tooManyRequests } from './api-error.js';
import type { EmulatorContext, OvhCredential, RequestContext } from './context.js';
import { errorReply, readBody, writeReply, type Reply } from './http-io.js';
import { matchRoute } from './routes.js';
import { verifySignature } from './signature.js';

export const BASE_PATH = '/1.0';

export interface PipelineDeps {
  emu: EmulatorContext;
  faults: FaultInjector;
  calls: CallLog;
  credentials: OvhCredential[];
  /** Aborted when the emulator closes, releasing requests held by timeout and slow faults. */
  closing: AbortSignal;
}

async function applyTransportFault(deps: PipelineDeps, fault: Fault, ctx: RequestContext): Promise<void> {
  switch (fault.kind) {
    case 'server-error':
      throw serverError(fault.status);
    case 'throttle':
      throw tooManyRequests(fault.retryAfterSeconds);
    case 'slow':
      await deps.emu.clock.sleep(fault.delayMs, deps.closing).catch(() => undefined);
      ctx.now = deps.emu.clock.now();
      return;
    case 'timeout':
      await deps.emu.clock.sleep(fault.afterMs, deps.closing).catch(() => undefined);
      throw new DropConnection();
    case 'out-of-stock':
    case 'quota-exceeded':
      ctx.fault = fault;
      return;
    default:
      return; // body and reply faults act on the answer once the handler has run
  }
}

/** A 200 answer spoiled by a body fault (OVH answers `null` for void calls: a short page leaves it alone). */
function spoiled(reply: Reply, fault: BodyFault): Reply {
  if (reply.status !== 200) return reply;
  return { status: 200, raw: damagedBody(fault, reply.json ?? null), ...(reply.headers ? { headers: reply.headers } : {}) };
}

async function route(deps: PipelineDeps, req: IncomingMessage, log: FaultLog): Promise<Reply> {
  const { emu } = deps;
  const method = (req.method ?? 'GET').toUpperCase();
  const url = new URL(req.url ?? '/', 'https://emulator.invalid');
  const rawBody = await readBody(req);
  if (!url.pathname.startsWith(`${BASE_PATH}/`)) throw invalidUrl();
  const path = url.pathname.slice(BASE_PATH.length);
  const match = matchRoute(method, path);
  if (match === undefined) throw invalidUrl();
  if (match === 'methodNotAllowed') throw methodNotAllowed(method, path);
  log.action = match.route.action;
  if (!match.route.public) {
    const nowSeconds = Math.floor(emu.clock.now() / 1000);
    verifySignature(req, rawBody, deps.credentials, { nowSeconds, maxSkewSeconds: emu.settings.maxClockSkewSeconds });
  }
  const ctx: RequestContext = { method, path, params: match.params, query: url.searchParams, rawBody, now: emu.clock.now() };
  const launch = match.route.describe?.(emu, ctx) ?? {};
  const request: RequestInfo = { method, path: url.pathname, action: log.action, instanceType: launch.instanceType, zone: launch.zone };
  await triageFault(deps.faults, request, log, (fault) => applyTransportFault(deps, fault, ctx));
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
    reply = err instanceof OvhApiError ? errorReply(err) : errorReply(serverError(500));
  }
  if (await replyFaultTookOver(x, log, reply.status, () => JSON.stringify(reply.json === undefined ? null : reply.json))) return;
  deps.calls.add({ at: x.at, method: x.method, path: x.path, action: log.action, status: reply.status, fault: log.fault });
  if (!res.destroyed) writeReply(res, reply);
}
