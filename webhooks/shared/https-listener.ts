/**
 * The listeners of the webhooks and the extender: HTTP or HTTPS for an app on a host/port, with keep-alive,
 * socket tracking, live certificate swaps and the listener's budget of request bytes in flight.
 */
import https from 'node:https';
import type { Socket } from 'node:net';
import http from 'node:http';
import type { RequestListener } from 'node:http';
import type { TlsMaterial } from './certificate-source.js';
import type { ServerClasses } from './express-classes.js';
import { budgeted, type RequestBudget } from './request-budget.js';

export interface ListenOptions {
  /** The request/response classes Node builds (expressServerClasses for an express app). */
  classes?: ServerClasses;
  /** Bytes of request bodies read at once; unbounded without it (benchmarks, the test bed). */
  budget?: RequestBudget;
}

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface RunningHttpsServer {
  url: string;
  port: number;
  /** Serves new connections with another certificate; open connections keep theirs. */
  setCertificate(material: TlsMaterial): void;
  close(): Promise<void>;
}

/**
 * Longer than the clients' idle connection timeout (Go's http.Transport IdleConnTimeout, 90 s, for the API server
 * and kube-scheduler alike), so the client closes idle keep-alive connections first and none is cut under a request.
 */
const KeepAliveTimeoutMs = 95_000;

function listener(app: RequestListener, options: ListenOptions): RequestListener {
  return options.budget ? budgeted(app, options.budget) : app;
}

export async function listenHttps(
  app: RequestListener,
  material: TlsMaterial,
  port: number,
  host: string,
  options: ListenOptions = {},
): Promise<RunningHttpsServer> {
  const tls = { cert: material.certPem, key: material.keyPem, minVersion: 'TLSv1.2' as const };
  const server = https.createServer({ ...tls, ...options.classes }, listener(app, options));
  const running = await listenTracked(server, 'https', port, host);
  return { ...running, setCertificate: (next) => server.setSecureContext({ cert: next.certPem, key: next.keyPem, minVersion: 'TLSv1.2' }) };
}

export function listenHttp(app: RequestListener, port: number, host: string, options: ListenOptions = {}): Promise<RunningServer> {
  return listenTracked(http.createServer({ ...options.classes }, listener(app, options)), 'http', port, host);
}

/**
 * Listens with the shared keep-alive and tracks sockets, so close() ends idle keep-alive connections at once
 * instead of waiting for their timeout.
 */
export function listenTracked(server: http.Server, scheme: 'http' | 'https', port: number, host: string): Promise<RunningServer> {
  server.keepAliveTimeout = KeepAliveTimeoutMs;
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const bound = (server.address() as { port: number }).port;
      resolve({
        url: `${scheme}://${host.includes(':') ? `[${host}]` : host}:${bound}`,
        port: bound,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            for (const socket of sockets) socket.destroy();
          }),
      });
    });
  });
}
