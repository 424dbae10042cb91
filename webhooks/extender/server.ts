/**
 * The kube-scheduler extender server (DESIGN §4, default port 8444): `POST /scheduler/filter`,
 * `POST /scheduler/prioritize`, `GET /healthz`, over HTTP or HTTPS. Decisions live in
 * src/domain/extender; this file only wires express, TLS and connection handling.
 */
import express, { type Express, type RequestHandler } from 'express';
import type { ExtenderClusterView } from '../../src/domain/extender/index.js';
import { type ErrorWriter, refuseBodiesOverLimit } from '../shared/body-limit.js';
import { type CertificateSource, loadCertificate, watchCertificate } from '../shared/certificate-source.js';
import { expressServerClasses } from '../shared/express-classes.js';
import { listenHttp, listenHttps, type ListenOptions } from '../shared/https-listener.js';
import { RequestBudget } from '../shared/request-budget.js';
import { checkJsonDepth } from '../shared/json-depth.js';
import { type RequestObserver, timed } from '../shared/request-timing.js';
import { errorHandler, filterHandler, prioritizeHandler } from './handlers.js';

/**
 * The largest ExtenderArgs kube-scheduler sends. It hands the extender only the nodes its own filters found
 * feasible, and stops after `percentageOfNodesToScore` of the cluster: by default 50 % − nodes/125 (at least
 * 5 %, integer arithmetic), at most 812 nodes (clusters of 3,124–3,249 nodes). A full Node object
 * (`nodeCacheCapable: false`) is 4–15 KiB (kubelet reports at most 50 images): 812 × 16 KiB plus the Pod
 * (the API server takes at most 3 MiB per object) is under 16 MiB. Node names (the shipped configuration)
 * stay under 5 MiB even for 5,000 names of the longest node name (253 bytes). Full Nodes with
 * `percentageOfNodesToScore: 100` on thousands of nodes are over the limit: 413, and kube-scheduler goes on
 * without the extender. 16 MiB keeps one request's parsed objects far inside the chart's 192 MB heap.
 */
export const ExtenderBodyLimit = 16 * 1024 * 1024;

export interface ExtenderServerOptions {
  view: ExtenderClusterView;
  /** The provisioner's signal: the pod `namespace/name` has no node left. Must return quickly. */
  onNeedsCapacity(podKey: string): void | Promise<void>;
  /**
   * Serving certificate for HTTPS, the webhooks' source: PEM, or files watched and re-read when the Secret
   * volume is rotated. Plain HTTP without it.
   */
  tls?: CertificateSource;
  /** Receives errors that are not the caller's fault (a failing onNeedsCapacity, a bug); default: ignored. */
  onError?(error: unknown): void;
  /** Sees every filter and prioritize answer with its duration (the latency metric). */
  onRequest?: RequestObserver;
  /** Bytes of request bodies read at once on this listener (a larger body is refused 413); default: unbounded. */
  requestBudget?: number;
}

export interface RunningExtenderServer {
  /** e.g. `http://127.0.0.1:41234`; the scheduler's urlPrefix is `${url}/scheduler`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface ExtenderServer {
  app: Express;
  listen(port?: number, host?: string): Promise<RunningExtenderServer>;
}

/**
 * Bodies up to this size reach the handlers as bytes, which they parse without making one large string
 * (json-body.ts): NodeNames bodies, ~45 bytes per name. Larger ones (full Nodes) are parsed by express.json
 * as they arrive: gathering megabytes into one Buffer first costs more than it saves.
 */
export const WalkedBodyLimit = 1024 * 1024;

/** The error body the scheduler decodes (extender/v1 `Error`), for answers given before the handlers run. */
const writeError: ErrorWriter = (res, status, message) => {
  res.status(status).json({ Error: `handling extender request: ${message}` });
};

function bodyParser(limit: number): RequestHandler {
  // Any content type: the scheduler sends application/json, and a wrong header should not turn a usable body into a 400.
  const options = { limit, type: () => true };
  const bytes = express.raw(options);
  // Bodies parsed here never reach json-body.ts, whose walk checks the depth of the small ones.
  const parsed = express.json({ ...options, verify: (_req, _res, body: Buffer) => checkJsonDepth(body) });
  return (req, res, next) => {
    // The scheduler's Go client always sends Content-Length; a chunked body goes the general way.
    const length = Number(req.headers['content-length']);
    (length <= WalkedBodyLimit ? bytes : parsed)(req, res, next);
  };
}

function createApp(options: ExtenderServerOptions): Express {
  const deps = { view: options.view, onNeedsCapacity: options.onNeedsCapacity, onError: options.onError ?? ((): void => undefined) };
  const app = express();
  app.disable('x-powered-by');
  // No ETag: the scheduler never revalidates, and hashing every (up to MiB-sized) answer costs latency.
  app.set('etag', false);
  app.get('/healthz', (_req, res) => {
    res.type('text/plain').send('ok');
  });
  // A body larger than the listener's budget could never be read: refused at once (413), not asked to retry.
  const limit = Math.min(ExtenderBodyLimit, options.requestBudget ?? Infinity);
  const body = [refuseBodiesOverLimit(limit, writeError), bodyParser(limit)];
  app.post('/scheduler/filter', timed('/scheduler/filter', options.onRequest), ...body, filterHandler(deps));
  app.post('/scheduler/prioritize', timed('/scheduler/prioritize', options.onRequest), ...body, prioritizeHandler(deps));
  app.use(errorHandler(deps));
  return app;
}

/** The same shape as the handlers' errors, which kube-scheduler logs. */
const refusal = (message: string): { contentType: string; body: string } => ({
  contentType: 'application/json; charset=utf-8',
  body: JSON.stringify({ Error: `handling extender request: ${message}` }),
});

/** The webhooks' HTTPS listener: same keep-alive, same live certificate swap when the files change. */
async function serveHttps(
  app: Express,
  tls: CertificateSource,
  where: { port: number; host: string },
  listen: ListenOptions,
  onError: (error: unknown) => void,
): Promise<RunningExtenderServer> {
  const running = await listenHttps(app, loadCertificate(tls), where.port, where.host, listen);
  const stopWatching = watchCertificate(tls, (material) => running.setCertificate(material), onError);
  return {
    url: running.url,
    port: running.port,
    close: async () => {
      stopWatching();
      await running.close();
    },
  };
}

export function createExtenderServer(options: ExtenderServerOptions): ExtenderServer {
  const app = createApp(options);
  const onError = options.onError ?? ((): void => undefined);
  const listen: ListenOptions = {
    classes: expressServerClasses(app),
    ...(options.requestBudget === undefined ? {} : { budget: new RequestBudget({ bytes: options.requestBudget, refusal }) }),
  };
  return {
    app,
    listen: (port = 0, host = '127.0.0.1') =>
      options.tls ? serveHttps(app, options.tls, { port, host }, listen, onError) : listenHttp(app, port, host, listen),
  };
}
