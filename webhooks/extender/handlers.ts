/**
 * HTTP handlers of the extender: decode the body, run the pure verb, encode the result. They never throw
 * past express: unusable bodies are a 400 whose body says why (kube-scheduler treats any non-200 as an
 * error and, with `ignorable: true`, carries on without the extender).
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { NextFunction, Request, Response } from 'express';
import {
  decodeExtenderArgs,
  decodeExtenderPod,
  ExtenderArgsError,
  failedNodeMaps,
  filter,
  filterSlots,
  podKey,
  prioritize,
  scoreSlots,
  type ExtenderClusterView,
  type ExtenderFilterResult,
  type ResolvedNodes,
  UnknownSlot,
  Verdict,
} from '../../src/domain/extender/index.js';
import { isPlainSpan, type NameSpans, spanName } from '../../src/util/byte-names.js';
import { encodeFilterResult, encodeHostPriorityList } from './encode.js';
import { encodeFilterOfNames, encodeScoresOfNames, failedNamesInInputOrder } from './encode-names.js';
import { parseJsonBody, walkNodeNamesBody } from './json-body.js';

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

/** A NodeNames call whose names stay spans of the body; the same verbs and answers, no string per name. */
interface NamesCall {
  pod: V1Pod;
  names: NameSpans;
  nodes: ResolvedNodes;
}

/** The call read on its bytes when the view finds nodes by their bytes; undefined: the general path decides. */
function namesCallOf(req: Request, view: ExtenderClusterView): NamesCall | undefined {
  if (!view.nodesNamed || !Buffer.isBuffer(req.body)) return undefined;
  const walked = walkNodeNamesBody(req.body);
  if (!walked) return undefined;
  const nodes = view.nodesNamed(walked.names);
  // A name the view found is plain (it indexes no other); any other must be too, for its bytes to be its JSON
  // (a raw control character makes the body invalid JSON, which the general path reports before the Pod).
  for (let i = 0; i < nodes.slots.length; i++) if (nodes.slots[i] === UnknownSlot && !isPlainSpan(walked.names, i)) return undefined;
  return { pod: decodeExtenderPod(walked.members), names: walked.names, nodes };
}

/** What res.json would send (same bytes, same headers), from a body encoded in encode.ts. */
function sendJson(res: Response, body: Buffer): void {
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

/** The filter answer with the names made strings, for failed names that must be written as objects are. */
function filterResultOfNames(names: NameSpans, verdicts: Uint8Array): ExtenderFilterResult {
  const { failed, unresolvable } = failedNodeMaps(verdicts, (i) => spanName(names, i));
  const kept: string[] = [];
  for (let i = 0; i < names.count; i++) if (verdicts[i] === Verdict.Keep) kept.push(spanName(names, i));
  return { Nodes: null, NodeNames: kept, FailedNodes: failed, FailedAndUnresolvableNodes: unresolvable, Error: '' };
}

function filterNames({ pod, names, nodes }: NamesCall, res: Response): boolean {
  const { verdicts, needsCapacity } = filterSlots(nodes, pod);
  const inOrder = failedNamesInInputOrder(names, nodes.slots, verdicts, nodes.columns.slotLimit);
  sendJson(res, inOrder ? encodeFilterOfNames(names, verdicts) : encodeFilterResult(filterResultOfNames(names, verdicts)));
  return needsCapacity;
}

export function filterHandler(deps: ExtenderHandlerDeps) {
  return (req: Request, res: Response): void => {
    const call = namesCallOf(req, deps.view);
    if (call) {
      if (filterNames(call, res)) signalNeedsCapacity(deps, podKey(call.pod));
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
    const call = namesCallOf(req, deps.view);
    if (call) sendJson(res, encodeScoresOfNames(call.names, scoreSlots(call.nodes, call.pod)));
    else sendJson(res, encodeHostPriorityList(prioritize(argsOf(req), deps.view)));
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
    const status = statusOf(error);
    if (status === 500) deps.onError(error);
    const message = status === 500 ? 'handling extender request: internal error' : `handling extender request: ${(error as Error).message}`;
    res.status(status).json({ Error: message });
  };
}
