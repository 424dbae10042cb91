/** Times each request of a route, from arrival to the last byte of the answer, for the service's latency metrics. */
import type { RequestHandler } from 'express';

/** Receives one finished request: its route (`/validate`, `/scheduler/filter`…), HTTP status and duration. */
export type RequestObserver = (path: string, status: number, seconds: number) => void;

export function timed(path: string, observe: RequestObserver | undefined): RequestHandler {
  return (_req, res, next) => {
    if (observe) {
      const start = process.hrtime.bigint();
      res.once('finish', () => observe(path, res.statusCode, Number(process.hrtime.bigint() - start) / 1e9));
    }
    next();
  };
}
