/** Express handlers: decode the AdmissionReview, call the pure admission rules, encode the answer. */
import type { NextFunction, Request, Response } from 'express';
import { type AdmissionContext, isOwnedKind, mutate, validate, type KubeObject } from '../../src/domain/admission/index.js';
import type { AdmissionContextProvider } from '../../src/domain/admission/context-provider.js';
import { tooLargeMessage } from '../shared/body-limit.js';
import { decodeReview, encodeReview, ReviewError } from './review.js';

export interface AdmissionHandlerDeps {
  contextProvider: AdmissionContextProvider;
  onError(error: unknown): void;
}

/** The context list that can hold an object of this kind (the others are shared as they are). */
const listOfKind: ReadonlyMap<unknown, 'nodePools' | 'nodeClasses' | 'nodeClaims'> = new Map([
  ['NodePool', 'nodePools'],
  ['NodeClaim', 'nodeClaims'],
  ['OVHNodeClass', 'nodeClasses'],
  ['ScalewayNodeClass', 'nodeClasses'],
  ['OutscaleNodeClass', 'nodeClasses'],
]);

/**
 * When the same object is under review, the copy in the context is the stored one: leave it out. Only the list
 * of the object's own kind is scanned: the NodeClaims run to thousands, and most reviews are of other kinds.
 */
function withoutSelf(
  deps: AdmissionHandlerDeps,
  operation: Parameters<AdmissionContextProvider['contextFor']>[0],
  object: KubeObject,
  oldObject?: KubeObject,
): AdmissionContext {
  const context = deps.contextProvider.contextFor(operation, oldObject);
  const list = listOfKind.get(object.kind);
  if (!list) return context;
  const name = (object.metadata as { name?: unknown } | undefined)?.name;
  const isSelf = (o: KubeObject): boolean => o.kind === object.kind && (o.metadata as { name?: unknown } | undefined)?.name === name;
  const objects = context[list];
  return objects.some(isSelf) ? { ...context, [list]: objects.filter((o) => !isSelf(o)) } : context;
}

export function validateHandler(deps: AdmissionHandlerDeps) {
  return (req: Request, res: Response): void => {
    const review = decodeReview(req.body);
    if (!isOwnedKind(review.kind) && review.kind !== 'Pod') {
      res.json(encodeReview({ uid: review.uid, allowed: true }));
      return;
    }
    const result = validate(review.object, withoutSelf(deps, review.operation, review.object, review.oldObject));
    res.json(encodeReview({ uid: review.uid, allowed: result.allowed, message: result.message, warnings: result.warnings }));
  };
}

export function mutateHandler(deps: AdmissionHandlerDeps) {
  return (req: Request, res: Response): void => {
    const review = decodeReview(req.body);
    if (!isOwnedKind(review.kind)) {
      res.json(encodeReview({ uid: review.uid, allowed: true }));
      return;
    }
    const result = mutate(review.object, withoutSelf(deps, review.operation, review.object, review.oldObject));
    res.json(encodeReview({ uid: review.uid, allowed: true, warnings: result.warnings }));
  };
}

/** Body-parser and decoding problems are the caller's: 400 with the reason. Anything else is ours: 500, reported. */
export function errorHandler(deps: Pick<AdmissionHandlerDeps, 'onError'>) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    // Already answered (a body refused while the parser was still reading it).
    if (res.headersSent) return;
    const status = (error as { status?: unknown }).status;
    const type = (error as { type?: unknown }).type;
    let message: string;
    if (error instanceof ReviewError) message = error.message;
    else if (type === 'entity.too.large') {
      res
        .status(413)
        .type('text/plain')
        .send(`decoding AdmissionReview: ${tooLargeMessage((error as { limit: number }).limit)}`);
      return;
    } else if (type === 'entity.parse.failed') message = `decoding AdmissionReview: malformed JSON: ${(error as Error).message}`;
    else if (typeof status === 'number' && status >= 400 && status < 500) message = `decoding AdmissionReview: ${(error as Error).message}`;
    else {
      deps.onError(error);
      res.status(500).type('text/plain').send('internal error while reviewing the request');
      return;
    }
    res.status(400).type('text/plain').send(message);
  };
}
