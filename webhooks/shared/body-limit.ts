/**
 * Refusing bodies larger than an endpoint takes. body-parser enforces its limit too (and never buffers past
 * it), but answers only after reading the whole request off the socket, so a 100 MB body was still received
 * in full before its 413, and an endless chunked one never was. Here a declared Content-Length over the limit
 * is answered at once, a chunked body as soon as it passes UndeclaredBodyLimit, and the connection is closed
 * instead of read further. Large bodies also share a byte budget per server: a parsed body takes about 2.5 times its
 * size in heap, so a few concurrent maximum-size requests would do what one 100 MB request did.
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
 * The bytes of large bodies a server reads and parses at once. Bodies up to `exemptUpTo` (the usual calls)
 * never wait on it; a larger one that would take the total past `bytes` is answered 503 with Retry-After.
 */
export class LargeBodyBudget {
  private inFlight = 0;

  constructor(
    readonly bytes: number,
    readonly exemptUpTo: number,
  ) {}

  /** Whether a body of `size` bytes may be read now; if so, `release` must be called when it is done with. */
  take(size: number): boolean {
    if (size <= this.exemptUpTo) return true;
    if (this.inFlight + size > this.bytes) return false;
    this.inFlight += size;
    return true;
  }

  release(size: number): void {
    if (size > this.exemptUpTo) this.inFlight -= size;
  }
}

/**
 * A body sent without Content-Length (chunked) may be at most this large. kube-scheduler and the API server
 * always declare the length; only a large body of unknown size would have to be read before it is refused.
 */
export const UndeclaredBodyLimit = 1024 * 1024;

/**
 * Answers 413 to a request whose body is over `limit`, or over UndeclaredBodyLimit without a Content-Length
 * (before reading it when its length is declared), and 503 to a large one the budget has no room for.
 */
export function refuseBodiesOverLimit(declaredLimit: number, write: ErrorWriter, budget?: LargeBodyBudget): RequestHandler {
  return (req, res, next) => {
    const declared = req.headers['content-length'];
    if (Number(declared) > declaredLimit) {
      refuse(req, res, write, 413, tooLargeMessage(declaredLimit, Number(declared)));
      return;
    }
    const limit = declared === undefined ? Math.min(declaredLimit, UndeclaredBodyLimit) : declaredLimit;
    const size = declared === undefined ? limit : Number(declared) || 0;
    // The usual small calls skip the budget entirely (no listener per request on the hot path).
    if (budget && size > budget.exemptUpTo) {
      if (!budget.take(size)) {
        res.setHeader('Retry-After', '1');
        refuse(req, res, write, 503, `busy: other large bodies are being read (at most ${budget.bytes} bytes at once); retry`);
        return;
      }
      res.once('close', () => budget.release(size));
    }
    next();
    if (declared !== undefined) return;
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
