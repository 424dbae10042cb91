/**
 * The metrics server of `run` (DESIGN §4, default :8080): `GET /metrics` (Prometheus text), `GET /healthz`
 * (the process answers) and `GET /readyz` (caches synced, servers up). Plain node:http: three routes do not
 * need a framework.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsServerOptions {
  registry: Registry;
  /** Why the process is not ready yet, or undefined when it is. */
  notReadyReason(): string | undefined;
  onError?(error: unknown): void;
}

export interface RunningMetricsServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

function reply(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function handle(options: MetricsServerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return reply(res, 405, 'text/plain', `method ${req.method ?? ''} is not allowed; accepted: GET\n`);
  if (path === '/metrics') return reply(res, 200, options.registry.contentType, await options.registry.metrics());
  if (path === '/healthz') return reply(res, 200, 'text/plain', 'ok\n');
  if (path === '/readyz') {
    const reason = options.notReadyReason();
    return reply(res, reason ? 503 : 200, 'text/plain', `${reason ?? 'ok'}\n`);
  }
  reply(res, 404, 'text/plain', `path ${path ?? ''} not found; accepted: /metrics, /healthz, /readyz\n`);
}

export function startMetricsServer(options: MetricsServerOptions, port: number, host: string): Promise<RunningMetricsServer> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handle(options, req, res).catch((error: unknown) => {
      options.onError?.(error);
      if (!res.headersSent) reply(res, 500, 'text/plain', 'collecting metrics failed\n');
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const bound = (server.address() as AddressInfo).port;
      const hostPart = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${hostPart}:${bound}`,
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
