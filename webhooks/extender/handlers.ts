/**
 * HTTP handlers of the extender: decode the body, run the pure verb, encode the result. They never throw
 * past express: unusable bodies are a 400 whose body says why (kube-scheduler treats any non-200 as an
 * error and, with `ignorable: true`, carries on without the extender).
 */
import type { NextFunction, Request, Response } from 'express';
import { ExtenderArgsError, filter, prioritize, type ExtenderClusterView } from '../../src/domain/extender/index.js';
import { decodeExtenderArgs } from './decode.js';
import { podKey } from '../../src/domain/pods/index.js';
import { encodeFilterResult, encodeHostPriorityList } from './encode.js';
import { parseJsonBody } from './json-body.js';
import { filterAnswer, namesCallOf, prioritizeAnswer } from './names-call.js';

export interface ExtenderHandlerDeps {
  view: ExtenderClusterView;
  /** Told at once when a pod has no node left; must return quickly (it runs on the request path). */
  onNeedsCapacity(podKey: string): void | Promise<void>;
  /** Receives failures of onNeedsCapacity, which never fail the scheduler's request. */
  onError(error: unknown): void;
}

function signalNeedsCapacity(deps: ExtenderHandlerDeps, key: string): void {
  try {
    const pending = deps.onNeedsCapacity(key);
    if (pending) pending.catch((error: unknown) => deps.onError(error));
  } catch (error) {
    deps.onError(error);
  }
}

/** The request's JSON (express.raw leaves the bytes, or undefined when the request has no body). */
function argsOf(req: Request) {
  return decodeExtenderArgs(Buffer.isBuffer(req.body) ? parseJsonBody(req.body) : req.body);
}

/** The call on its bytes (names-call.ts) when the view and the body allow it. */
function namesCall(req: Request, view: ExtenderClusterView) {
  return Buffer.isBuffer(req.body) ? namesCallOf(req.body, view) : undefined;
}

/** What res.json would send (same bytes, same headers), from a body encoded in encode.ts. */
function sendJson(res: Response, body: Buffer): void {
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

export function filterHandler(deps: ExtenderHandlerDeps) {
  return (req: Request, res: Response): void => {
    const call = namesCall(req, deps.view);
    if (call) {
      const { body, needsCapacity } = filterAnswer(call);
      sendJson(res, body);
      if (needsCapacity) signalNeedsCapacity(deps, podKey(call.pod));
      return;
    }
    const args = argsOf(req);
    const { result, needsCapacity } = filter(args, deps.view);
    sendJson(res, encodeFilterResult(result));
    if (needsCapacity) signalNeedsCapacity(deps, podKey(args.Pod));
  };
}

export function prioritizeHandler(deps: ExtenderHandlerDeps) {
  return (req: Request, res: Response): void => {
    const call = namesCall(req, deps.view);
    sendJson(res, call ? prioritizeAnswer(call) : encodeHostPriorityList(prioritize(argsOf(req), deps.view)));
  };
}

function statusOf(error: unknown): number {
  if (error instanceof ExtenderArgsError) return 400;
  const status = (error as { status?: unknown } | null)?.status;
  // JsonBodyError and body-parser errors carry their HTTP status (400 bad JSON, 413 too large, 415 bad encoding).
  return typeof status === 'number' && status >= 400 && status < 500 ? status : 500;
}

/** Express error middleware: a JSON `{Error}` body, the shape the scheduler decodes results from. */
export function errorHandler(deps: Pick<ExtenderHandlerDeps, 'onError'>) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    // Already answered (a body refused while the parser was still reading it).
    if (res.headersSent) return;
    const status = statusOf(error);
    if (status === 500) deps.onError(error);
    const message = status === 500 ? 'handling extender request: internal error' : `handling extender request: ${(error as Error).message}`;
    res.status(status).json({ Error: message });
  };
}
