/**
 * The admission webhook server (DESIGN §4, default :8443, HTTPS only): `POST /validate`, `POST /mutate`,
 * `GET /healthz`, `GET /readyz`. Decisions live in src/domain/admission; this file wires express and TLS.
 */
import express, { type Express, type Request, type Response, type NextFunction } from 'express';
import { type CertificateSource, loadCertificate, watchCertificate } from '../shared/certificate-source.js';
import { type ErrorWriter, refuseBodiesOverLimit } from '../shared/body-limit.js';
import { expressServerClasses } from '../shared/express-classes.js';
import { checkJsonDepth } from '../shared/json-depth.js';
import { type RequestObserver, timed } from '../shared/request-timing.js';
import { listenHttps, type RunningHttpsServer } from '../shared/https-listener.js';
import { RequestBudget } from '../shared/request-budget.js';
import type { AdmissionContextProvider } from '../../src/domain/admission/context-provider.js';
import { errorHandler, mutateHandler, validateHandler } from './handlers.js';

/**
 * The largest AdmissionReview the API server sends: an UPDATE carries the object and the stored one, each at
 * most 3 MiB (the API server's request-body limit; etcd's default object limit is 1.5 MiB), plus the envelope
 * (user info, options) — 6 MiB and 64 KiB. The NodePools and NodeClasses reviewed here are a few KiB.
 */
export const AdmissionBodyLimit = 2 * 3 * 1024 * 1024 + 64 * 1024;

const writeError: ErrorWriter = (res, status, message) => {
  res.status(status).type('text/plain').send(`decoding AdmissionReview: ${message}`);
};

/** The API server shows a failed call's status, not its body: plain text for a reader of the logs. */
const refusal = (message: string): { contentType: string; body: string } => ({ contentType: 'text/plain; charset=utf-8', body: message });

export interface AdmissionServerOptions {
  tls: CertificateSource;
  contextProvider: AdmissionContextProvider;
  bodyLimit?: number;
  /** Bytes of request bodies read at once on this listener (a larger body is refused 413); default: unbounded. */
  requestBudget?: number;
  /** Errors that are not the caller's fault (bugs, certificate reload failures); default: ignored. */
  onError?(error: unknown): void;
  /** Sees every /validate and /mutate answer with its duration (the latency metric). */
  onRequest?: RequestObserver;
}

export interface RunningAdmissionServer {
  url: string;
  port: number;
  /** Re-reads the certificate files now (they are also polled). */
  reloadCertificate(): void;
  close(): Promise<void>;
}

export interface AdmissionServer {
  app: Express;
  listen(port?: number, host?: string): Promise<RunningAdmissionServer>;
}

function requireJson(req: Request, _res: Response, next: NextFunction): void {
  if (!req.is('application/json')) {
    next(
      Object.assign(
        new Error(`content type ${JSON.stringify(req.get('content-type') ?? '')} is not supported; accepted: application/json`),
        { status: 415 },
      ),
    );
    return;
  }
  next();
}

function createApp(options: AdmissionServerOptions): Express {
  const deps = { contextProvider: options.contextProvider, onError: options.onError ?? ((): void => undefined) };
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.get('/healthz', (_req, res) => {
    res.type('text/plain').send('ok');
  });
  app.get('/readyz', (_req, res) => {
    const ready = options.contextProvider.ready();
    res
      .status(ready ? 200 : 503)
      .type('text/plain')
      .send(ready ? 'ok' : 'caches not synced');
  });
  // A body larger than the listener's budget could never be read: refused at once (413), not asked to retry.
  const limit = Math.min(options.bodyLimit ?? AdmissionBodyLimit, options.requestBudget ?? Infinity);
  const json = [
    refuseBodiesOverLimit(limit, writeError),
    requireJson,
    express.json({ limit, type: () => true, verify: (_req, _res, body: Buffer) => checkJsonDepth(body) }),
  ];
  app.post('/validate', timed('/validate', options.onRequest), ...json, validateHandler(deps));
  app.post('/mutate', timed('/mutate', options.onRequest), ...json, mutateHandler(deps));
  app.use(errorHandler(deps));
  return app;
}

export function createAdmissionServer(options: AdmissionServerOptions): AdmissionServer {
  const app = createApp(options);
  const onError = options.onError ?? ((): void => undefined);
  const budget = options.requestBudget === undefined ? undefined : new RequestBudget({ bytes: options.requestBudget, refusal });
  return {
    app,
    async listen(port = 0, host = '127.0.0.1'): Promise<RunningAdmissionServer> {
      const running: RunningHttpsServer = await listenHttps(app, loadCertificate(options.tls), port, host, {
        classes: expressServerClasses(app),
        ...(budget ? { budget } : {}),
      });
      const stopWatching = watchCertificate(options.tls, (material) => running.setCertificate(material), onError);
      return {
        url: running.url,
        port: running.port,
        reloadCertificate: () => running.setCertificate(loadCertificate(options.tls)),
        close: async () => {
          stopWatching();
          await running.close();
        },
      };
    },
  };
}
