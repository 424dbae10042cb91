/**
 * The bytes of request bodies a listener reads at once. Every body is counted from its arrival to the end of its
 * answer (a body is held as bytes, then as a string and parsed objects, until the handler answers), so memory
 * stays bounded whatever the mix: many ordinary 1 MiB requests cost what a few large ones would. A request that
 * would take the listener past its budget is answered 429 with Retry-After before its body is read, and its
 * connection closed instead of read further. One client (a remote address) may hold at most half the budget,
 * unless it has nothing else in flight: a flood from one pod leaves room for the API server or the scheduler.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { UndeclaredBodyLimit } from './body-limit.js';

/** The answer a listener sends for a refused request, in its endpoint's shape (JSON for the extender, text for admission). */
export type RefusalBody = (message: string) => { contentType: string; body: string };

export interface RequestBudgetOptions {
  /** Bytes of bodies in flight at most. */
  bytes: number;
  refusal: RefusalBody;
}

/** Seconds a refused client is told to wait: the time a maximum-size body takes to be read and answered. */
const RetryAfterSeconds = 1;

export class RequestBudget {
  private inFlight = 0;
  private readonly byClient = new Map<string, number>();

  constructor(readonly options: RequestBudgetOptions) {}

  get bytes(): number {
    return this.options.bytes;
  }

  /** Bytes held now (for tests and metrics). */
  held(): number {
    return this.inFlight;
  }

  /** Whether `client` may have `size` more bytes read now; if so, `release` must follow. */
  take(client: string, size: number): boolean {
    if (this.inFlight + size > this.options.bytes) return false;
    const own = this.byClient.get(client) ?? 0;
    if (own > 0 && own + size > this.options.bytes / 2) return false;
    this.inFlight += size;
    this.byClient.set(client, own + size);
    return true;
  }

  release(client: string, size: number): void {
    this.inFlight -= size;
    const own = (this.byClient.get(client) ?? 0) - size;
    if (own > 0) this.byClient.set(client, own);
    else this.byClient.delete(client);
  }
}

/**
 * The bytes a request is counted for: its declared length, or the most a body without Content-Length may
 * carry (body-limit.ts stops it there); never more than the budget, as the endpoints refuse larger bodies (413).
 */
function reservation(req: IncomingMessage, budget: RequestBudget): number {
  const declared = req.headers['content-length'];
  if (declared === undefined) return req.headers['transfer-encoding'] ? Math.min(UndeclaredBodyLimit, budget.bytes) : 0;
  const length = Number(declared);
  return Number.isFinite(length) && length > 0 ? Math.min(length, budget.bytes) : 0;
}

function refuse(req: IncomingMessage, res: ServerResponse, budget: RequestBudget): void {
  const { contentType, body } = budget.options.refusal(
    `too many request bytes in flight (at most ${budget.bytes} bytes at once on this port); retry after ${RetryAfterSeconds}s`,
  );
  res.writeHead(429, { 'Content-Type': contentType, 'Retry-After': String(RetryAfterSeconds), Connection: 'close' });
  // Node then ends the connection after the answer instead of reading the rest of the body.
  res.on('finish', () => req.socket.destroySoon());
  res.end(body);
}

/** `app` behind the budget: bodyless requests (probes) pass untouched, others are counted until their answer closes. */
export function budgeted(app: RequestListener, budget: RequestBudget): RequestListener {
  return (req, res) => {
    const size = reservation(req, budget);
    if (size === 0) return app(req, res);
    const client = req.socket.remoteAddress ?? '';
    if (!budget.take(client, size)) return refuse(req, res, budget);
    res.once('close', () => budget.release(client, size));
    return app(req, res);
  };
}
