/** An HTTPS server for an express app on a host/port, with keep-alive, socket tracking and live certificate swaps. */
import https from 'node:https';
import type { Socket } from 'node:net';
import type http from 'node:http';
import type { RequestListener } from 'node:http';
import type { TlsMaterial } from './certificate-source.js';
import type { ServerClasses } from './express-classes.js';

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

/** `classes`: the request/response classes Node builds (expressServerClasses for an express app). */
export async function listenHttps(
  app: RequestListener,
  material: TlsMaterial,
  port: number,
  host: string,
  classes?: ServerClasses,
): Promise<RunningHttpsServer> {
  const server = https.createServer({ cert: material.certPem, key: material.keyPem, minVersion: 'TLSv1.2', ...classes }, app);
  const running = await listenTracked(server, 'https', port, host);
  return { ...running, setCertificate: (next) => server.setSecureContext({ cert: next.certPem, key: next.keyPem, minVersion: 'TLSv1.2' }) };
}

/**
 * Listens with the shared keep-alive and tracks sockets, so close() ends idle keep-alive connections at once
 * instead of waiting for their timeout.
 */
export function listenTracked(
  server: http.Server,
  scheme: 'http' | 'https',
  port: number,
  host: string,
): Promise<{ url: string; port: number; close(): Promise<void> }> {
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
