/**
 * HTTP handlers of the extender: decode the body, run the pure verb, encode the result. They never throw
 * past express: unusable bodies are a 400 whose body says why (kube-scheduler treats any non-200 as an
 * error and, with `ignorable: true`, carries on without the extender).
 */
import type { NextFunction, Request, Response } from 'express';
import { decodeExtenderArgs, ExtenderArgsError, filter, podKey, prioritize, type ExtenderClusterView } from '../../src/domain/extender/index.js';

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

export function filterHandler(deps: ExtenderHandlerDeps) {
  return (req: Request, res: Response): void => {
    const args = decodeExtenderArgs(req.body);
    const { result, needsCapacity } = filter(args, deps.view);
    res.status(200).json(result);
    if (needsCapacity) signalNeedsCapacity(deps, podKey(args.Pod));
  };
}

export function prioritizeHandler(deps: ExtenderHandlerDeps) {
  return (req: Request, res: Response): void => {
    res.status(200).json(prioritize(decodeExtenderArgs(req.body), deps.view));
  };
}

function statusOf(error: unknown): number {
  if (error instanceof ExtenderArgsError) return 400;
  const status = (error as { status?: unknown } | null)?.status;
  // body-parser errors carry their HTTP status (400 bad JSON, 413 too large, 415 bad charset).
  return typeof status === 'number' && status >= 400 && status < 500 ? status : 500;
}

/** Express error middleware: a JSON `{Error}` body, the shape the scheduler decodes results from. */
export function errorHandler(deps: Pick<ExtenderHandlerDeps, 'onError'>) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    const status = statusOf(error);
    if (status === 500) deps.onError(error);
    const message = status === 500 ? 'handling extender request: internal error' : `handling extender request: ${(error as Error).message}`;
    res.status(status).json({ Error: message });
  };
}
