/**
 * Refusing bodies larger than an endpoint takes. body-parser enforces its limit too (and never buffers past
 * it), but answers only after reading the whole request off the socket, so a 100 MB body was still received
 * in full before its 413, and an endless chunked one never was. Here a declared Content-Length over the limit
 * is answered at once, a chunked body as soon as it passes UndeclaredBodyLimit, and the connection is closed
 * instead of read further. How many bytes of bodies are read at once is the listener's budget (request-budget.ts).
 */
import type { Request, RequestHandler, Response } from 'express';

/** How an endpoint writes an error in its own shape (a JSON `{Error}` for the extender, text for admission). */
export type ErrorWriter = (res: Response, status: number, message: string) => void;

export function tooLargeMessage(limit: number, length?: number): string {
  const size = length === undefined ? 'larger than' : `${length} bytes, over`;
  return `the body is ${size} the ${limit}-byte limit of this endpoint; accepted: at most ${limit} bytes`;
}

function undeclaredTooLargeMessage(limit: number, declaredLimit: number): string {
  return `the body, sent without Content-Length, is larger than the ${limit} bytes accepted that way; accepted: at most ${declaredLimit} bytes with a Content-Length`;
}

function refuse(req: Request, res: Response, write: ErrorWriter, status: number, message: string): void {
  res.setHeader('Connection', 'close');
  // Node then ends the connection after the answer instead of reading the rest of the body.
  res.on('finish', () => req.socket.destroySoon());
  write(res, status, message);
}

/**
 * A body sent without Content-Length (chunked) may be at most this large. kube-scheduler and the API server
 * always declare the length; only a large body of unknown size would have to be read before it is refused.
 */
export const UndeclaredBodyLimit = 1024 * 1024;

/**
 * Answers 413 to a request whose body is over `limit`, or over UndeclaredBodyLimit without a Content-Length
 * (before reading it when its length is declared).
 */
export function refuseBodiesOverLimit(declaredLimit: number, write: ErrorWriter): RequestHandler {
  return (req, res, next) => {
    const declared = req.headers['content-length'];
    if (Number(declared) > declaredLimit) {
      refuse(req, res, write, 413, tooLargeMessage(declaredLimit, Number(declared)));
      return;
    }
    next();
    if (declared !== undefined) return;
    const limit = Math.min(declaredLimit, UndeclaredBodyLimit);
    // Counted after next(): the body parser has attached its own reader by then, so no chunk is missed.
    let received = 0;
    const count = (chunk: Buffer): void => {
      received += chunk.length;
      if (received <= limit) return;
      req.off('data', count);
      if (!res.headersSent) refuse(req, res, write, 413, undeclaredTooLargeMessage(limit, declaredLimit));
    };
    req.on('data', count);
  };
}
