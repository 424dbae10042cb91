/** Fixtures for the kube/state wire tests: the simulated API server with our CRDs, and a fault proxy. */
import http from 'node:http';
import { type AddressInfo, type Socket } from 'node:net';
import * as k8s from '@kubernetes/client-node';
import { buildCrd, CrdDefinitions } from '../../../src/apis/index.js';
import { type ApiServer, startApiServer, type ApiServerOptions } from '../../../src/testbed/cluster/apiserver/index.js';
import { kubeConfigFor } from '../../../src/testbed/cluster/apiserver/kubeconfig.js';

export async function startClusterWithCrds(options: ApiServerOptions = {}): Promise<ApiServer> {
  const server = await startApiServer(options);
  const ext = server.kubeConfig.makeApiClient(k8s.ApiextensionsV1Api);
  for (const def of CrdDefinitions) {
    await ext.createCustomResourceDefinition({ body: buildCrd(def) as unknown as k8s.V1CustomResourceDefinition });
  }
  await server.settle();
  return server;
}

/** Polls until `check` returns a value (not undefined/false) or fails after `attempts` tries, 10 ms apart. */
export async function eventually<T>(check: () => T | undefined | false | Promise<T | undefined | false>, attempts = 300): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('condition not reached');
}

export interface FaultProxy {
  kubeConfig: k8s.KubeConfig;
  /** The next `count` requests whose path+query match `pattern` get `status` with a Status body. */
  failNext(count: number, status: number, pattern?: RegExp): void;
  /** Requests answered with a fault so far. */
  readonly faultsServed: number;
  /** Request lines seen (`GET /api/v1/pods?...`). */
  readonly requests: string[];
  close(): Promise<void>;
}

/** A loopback HTTP proxy in front of the API server that can answer chosen requests with an error. */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  let pending: { count: number; status: number; pattern?: RegExp } | undefined;
  let faultsServed = 0;
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const line = `${req.method} ${req.url}`;
    requests.push(line);
    if (pending && pending.count > 0 && (!pending.pattern || pending.pattern.test(req.url ?? ''))) {
      pending.count -= 1;
      faultsServed += 1;
      res.writeHead(pending.status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          code: pending.status,
          reason: 'InternalError',
          message: 'injected fault',
        }),
      );
      return;
    }
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        res.flushHeaders(); // a watch may send no body for a while; the client waits for the headers
        up.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    kubeConfig: kubeConfigFor(url),
    failNext: (count, status, pattern) => {
      pending = { count, status, pattern };
    },
    get faultsServed() {
      return faultsServed;
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export function pod(name: string, extra: Partial<k8s.V1Pod> = {}): k8s.V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', ...extra.metadata },
    spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.9' }], ...extra.spec },
    status: extra.status,
  };
}
