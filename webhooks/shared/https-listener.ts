/** An HTTPS server for an express app on a host/port, with keep-alive, socket tracking and live certificate swaps. */
import https from 'node:https';
import type { Socket } from 'node:net';
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

/** Longer than the API server's idle connection timeout (90 s), so it closes idle connections first. */
const KeepAliveTimeoutMs = 95_000;

/** `classes`: the request/response classes Node builds (expressServerClasses for an express app). */
export function listenHttps(app: RequestListener, material: TlsMaterial, port: number, host: string, classes?: ServerClasses): Promise<RunningHttpsServer> {
  const server = https.createServer({ cert: material.certPem, key: material.keyPem, minVersion: 'TLSv1.2', ...classes }, app);
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
        url: `https://${host.includes(':') ? `[${host}]` : host}:${bound}`,
        port: bound,
        setCertificate: (next) => server.setSecureContext({ cert: next.certPem, key: next.keyPem, minVersion: 'TLSv1.2' }),
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            for (const socket of sockets) socket.destroy();
          }),
      });
    });
  });
}
