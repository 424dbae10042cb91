/**
 * One request through the emulator: route (under `/1.0`), verify the signature (except on public
 * routes), ask the fault injector, render the fault the way OVH does or run the handler, log the call.
 * Capacity faults are not HTTP errors on MKS: they reach the handler and show as node statuses.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { applyReplyFault, type BodyFault, type CallLog, damagedBody, type Fault, type FaultInjector, isBodyFault, isDropHook, isReplyFault, type ReplyFault, type RequestInfo, writeSpoiled } from '../faults.js';
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

/** Thrown to hold a request and drop its connection (the timeout fault). */
class DropConnection extends Error {}

interface LogFields {
  action?: string;
  fault?: Fault['kind'];
  /** A fault that spoils the body of the 200 answer. */
  bodyFault?: BodyFault;
  /** A fault that acts on the answer, with the request it matched. */
  reply?: { fault: ReplyFault; request: RequestInfo };
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

async function route(deps: PipelineDeps, req: IncomingMessage, log: LogFields): Promise<Reply> {
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
  const fault = deps.faults.decide(request);
  if (fault) {
    log.fault = fault.kind;
    if (isDropHook(fault)) {
      await fault.run(request);
      throw new DropConnection();
    }
    if (isBodyFault(fault)) log.bodyFault = fault;
    else if (isReplyFault(fault)) log.reply = { fault, request };
    else await applyTransportFault(deps, fault, ctx);
  }
  return match.route.handler(emu, ctx);
}

export async function handleRequest(deps: PipelineDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const at = deps.emu.clock.now();
  const method = (req.method ?? 'GET').toUpperCase();
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const log: LogFields = {};
  let reply: Reply;
  try {
    reply = await route(deps, req, log);
    if (log.bodyFault) reply = spoiled(reply, log.bodyFault);
  } catch (err) {
    if (err instanceof DropConnection) {
      deps.calls.add({ at, method, path, action: log.action, status: 0, fault: log.fault });
      req.socket.destroy();
      return;
    }
    // Anything but an API error is an emulator bug: answer like the API's own internal error.
    reply = err instanceof OvhApiError ? errorReply(err) : errorReply(serverError(500));
  }
  if (log.reply) {
    const outcome = await applyReplyFault(log.reply.fault, log.reply.request, reply.status, JSON.stringify(reply.json === undefined ? null : reply.json));
    if (outcome.send === 'none') {
      deps.calls.add({ at, method, path, action: log.action, status: 0, fault: log.fault });
      req.socket.destroy();
      return;
    }
    if (outcome.send === 'replaced') {
      deps.calls.add({ at, method, path, action: log.action, status: outcome.status, fault: log.fault });
      writeSpoiled(res, outcome.status, outcome.payload);
      return;
    }
  }
  deps.calls.add({ at, method, path, action: log.action, status: reply.status, fault: log.fault });
  if (!res.destroyed) writeReply(res, reply);
}
