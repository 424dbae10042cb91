/**
 * The steps every emulator's request pipeline shares around its own routing and wire format: the fault
 * injector's decision sorted into what acts before the handler and what acts on its answer, a reply fault's
 * outcome, and a dropped connection logged as status 0. Each cloud renders errors and bodies its own way.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  applyReplyFault,
  type BodyFault,
  type CallLog,
  type Fault,
  type FaultInjector,
  isBodyFault,
  isDropHook,
  isReplyFault,
  type ReplyFault,
  type RequestInfo,
  writeSpoiled,
} from './faults.js';

/** Thrown to hold a request and then drop its connection (the timeout and drop-hook faults). */
export class DropConnection extends Error {}

/** What the call log and the answer need to know about the request once routed. */
export interface FaultLog {
  action?: string;
  fault?: Fault['kind'];
  /** A fault that spoils the body of the 200 answer. */
  bodyFault?: BodyFault;
  /** A fault that acts on the answer, with the request it matched. */
  reply?: { fault: ReplyFault; request: RequestInfo };
}

/**
 * Asks the injector about `request` and records its verdict in `log`: a drop hook runs and drops the connection,
 * body and reply faults wait for the answer, the rest go to `beforeHandler` (errors, delays, capacity).
 */
export async function triageFault(
  faults: FaultInjector,
  request: RequestInfo,
  log: FaultLog,
  beforeHandler: (fault: Fault) => Promise<void>,
): Promise<void> {
  const fault = faults.decide(request);
  if (!fault) return;
  log.fault = fault.kind;
  if (isDropHook(fault)) {
    await fault.run(request);
    throw new DropConnection();
  }
  if (isBodyFault(fault)) log.bodyFault = fault;
  else if (isReplyFault(fault)) log.reply = { fault, request };
  else await beforeHandler(fault);
}

/** One request's exchange: when it started, what it asked, and where its call is logged. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  calls: CallLog;
  at: number;
  method: string;
  path: string;
}

export function openExchange(req: IncomingMessage, res: ServerResponse, calls: CallLog, at: number, defaultMethod: string): Exchange {
  return { req, res, calls, at, method: (req.method ?? defaultMethod).toUpperCase(), path: (req.url ?? '/').split('?')[0] ?? '/' };
}

/** Drops the connection without an answer and logs the call with status 0. */
export function dropConnection(x: Exchange, log: FaultLog): void {
  x.calls.add({ at: x.at, method: x.method, path: x.path, action: log.action, status: 0, fault: log.fault });
  x.req.socket.destroy();
}

/**
 * Applies a pending reply fault to the answer about to be sent (`payload` serializes it): true when the fault
 * dropped or replaced it, and the exchange is over; false when the answer goes out as is.
 */
export async function replyFaultTookOver(x: Exchange, log: FaultLog, status: number, payload: () => string): Promise<boolean> {
  if (!log.reply) return false;
  const outcome = await applyReplyFault(log.reply.fault, log.reply.request, status, payload());
  if (outcome.send === 'as-is') return false;
  if (outcome.send === 'none') {
    dropConnection(x, log);
    return true;
  }
  x.calls.add({ at: x.at, method: x.method, path: x.path, action: log.action, status: outcome.status, fault: log.fault });
  writeSpoiled(x.res, outcome.status, outcome.payload);
  return true;
}
