/**
 * A Service in front of several replicas, as kube-proxy gives one: each new connection goes to the first
 * endpoint that is ready (here: started and not frozen), so a frozen replica stops getting traffic.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface ServiceProxy {
  port: number;
  close(): Promise<void>;
}

export async function startServiceProxy(endpoint: () => number | undefined): Promise<ServiceProxy> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const port = endpoint();
    if (port === undefined) return void client.destroy();
    const upstream = createConnection({ host: '127.0.0.1', port });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.once('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as { port: number }).port,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
