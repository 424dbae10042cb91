/**
 * startApiServer: the simulated Kubernetes API server on 127.0.0.1 (ephemeral port, plain HTTP), with its
 * store, admission, controllers and a kubeconfig. Everything is wired here and torn down by close().
 */
import http from 'node:http';
import { type Socket } from 'node:net';
import { type KubeConfig } from '@kubernetes/client-node';
import { type Clock, SystemClock } from '../../../util/clock.js';
import { type ServiceResolver } from './admission/webhook-configuration.js';
import { WebhookAdmitter } from './admission/webhook-admitter.js';
import { type Controller } from './controllers/controller.js';
import { CrdController } from './controllers/crd-controller.js';
import { DeploymentController } from './controllers/deployment-controller.js';
import { GarbageCollector } from './controllers/garbage-collector.js';
import { NamespaceController } from './controllers/namespace-controller.js';
import { PdbController } from './controllers/pdb-controller.js';
import { ReplicaSetController } from './controllers/replica-set-controller.js';
import { ResourceClaimController } from './controllers/resource-claim-controller.js';
import { StatefulSetController } from './controllers/stateful-set-controller.js';
import { Deleter } from './deletion.js';
import { FaultInjector } from '../../emulators/faults.js';
import { createRouter } from './http/router.js';
import { kubeConfigFor, writeKubeconfig } from './kubeconfig.js';
import { ObjectService } from './object-service.js';
import { ObjectStore } from './object-store.js';
import { PodSubresources } from './pod-subresources.js';
import { ResourceRegistry } from './resource-registry.js';
import { ScaleSubresource } from './scale-subresource.js';
import { type ResourceType } from './resource-type.js';
import { type WatchStream } from './watch-stream.js';
import { WatchDelays, type WatchDelaySettings } from './watch-delay.js';
import { adminUser } from './write-context.js';
import { AuditLog } from './audit.js';
import { type UserInfo } from './admission/admission-types.js';

export interface ApiServerOptions {
  clock?: Clock;
  /** Randomness for generated names (deterministic in tests when injected). */
  random?: () => number;
  /** How many changes a watch can resume across before it gets 410 Gone. */
  watchCacheSize?: number;
  bookmarkIntervalMs?: number;
  /** Pods bound to a node get a deletionTimestamp and wait (for a kubelet simulator) instead of vanishing. */
  gracefulPodDeletion?: boolean;
  /** Maps webhook `clientConfig.service` references to URLs. */
  resolveService?: ServiceResolver;
  /**
   * Checks the certificate of a webhook reached through `clientConfig.service` against `<name>.<namespace>.svc`, the
   * name kube-apiserver calls it by, instead of the resolved loopback URL's host (what loopback certificates name).
   */
  verifyServiceNames?: boolean;
  /** Write a kubeconfig file (to this path, or a temp file when `true`). */
  kubeconfig?: string | boolean;
  /** Namespaces created at start (default, kube-system, kube-public, kube-node-lease). */
  namespaces?: string[];
  /** Bearer token → user name (`--token-auth-file`): each client given a token is told apart in the audit log. */
  tokens?: Record<string, string>;
  /** Watch delivery delays per resource from the start (changeable later through `watchDelays`). */
  watchDelays?: WatchDelaySettings;
}

export interface ApiServer {
  url: string;
  kubeConfig: KubeConfig;
  kubeconfigPath?: string;
  store: ObjectStore;
  objects: ObjectService;
  registry: ResourceRegistry;
  /** Finds a served type by apiVersion and kind (e.g. 'karpenter.sh/v1', 'NodePool'). */
  typeOf(apiVersion: string, kind: string): ResourceType;
  /** Body faults (empty, `{}`, truncated, short list) for 200 answers, matched by method and path. */
  faults: FaultInjector;
  /** Every request that could write, with the user its token names. */
  audit: AuditLog;
  /** Delays watch events per resource (a lagging watch); applies to events sent from the change on. */
  watchDelays: WatchDelays;
  /** Ends every open watch as a dropped connection would. */
  dropWatches(): void;
  /** Sends a BOOKMARK now on every watch that asked for them. */
  sendBookmarks(): void;
  /** Resolves when the in-simulator controllers have no pending work. */
  settle(): Promise<void>;
  /** Controller errors kept for inspection. */
  controllerErrors(): Error[];
  close(): Promise<void>;
}

const defaultNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export async function startApiServer(options: ApiServerOptions = {}): Promise<ApiServer> {
  const clock = options.clock ?? new SystemClock();
  const random = options.random ?? Math.random;
  const store = new ObjectStore(options.watchCacheSize ?? 50_000);
  const registry = new ResourceRegistry();
  const admitter = new WebhookAdmitter(store, options.resolveService ?? (() => undefined), options.verifyServiceNames ?? false);
  const objects = new ObjectService(store, clock, random, admitter);
  const deleter = new Deleter(objects, clock, options.gracefulPodDeletion ?? false);
  const pods = new PodSubresources(objects, deleter, registry, clock);
  const controllers: Controller[] = [
    new CrdController(store, registry, clock),
    new GarbageCollector(store, registry, deleter),
    new NamespaceController(store, registry, deleter),
    new PdbController(store, clock),
    new DeploymentController(objects, registry),
    new ReplicaSetController(objects, deleter, registry),
    new StatefulSetController(objects, deleter, registry),
    new ResourceClaimController(objects, deleter, registry),
  ];
  const unsubscribe = store.subscribe('*', (event) => {
    for (const c of controllers) c.observe(event);
  });
  const openWatches = new Set<WatchStream>();
  const namespaceType = registry.find('', 'v1', 'namespaces') as ResourceType;
  for (const name of options.namespaces ?? defaultNamespaces) {
    await objects.create(
      namespaceType,
      '',
      { metadata: { name, labels: { 'kubernetes.io/metadata.name': name } } },
      { dryRun: false, userInfo: adminUser, warnings: [] },
    );
  }

  let address = '127.0.0.1:0';
  const faults = new FaultInjector();
  const users = new Map<string, UserInfo>();
  for (const [token, username] of Object.entries(options.tokens ?? {})) users.set(token, { username, groups: ['system:authenticated'] });
  const audit = new AuditLog(clock, users);
  const watchDelays = new WatchDelays(options.watchDelays);
  const watchSettings = { bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60_000, delays: watchDelays };
  const router = createRouter(
    registry,
    { objects, deleter, pods, scale: new ScaleSubresource(objects), clock, watchSettings, openWatches, audit },
    () => address,
    faults,
  );
  const server = http.createServer(router);
  server.keepAliveTimeout = 5_000;
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  address = `127.0.0.1:${port}`;
  const url = `http://${address}`;
  const kubeconfigFile = options.kubeconfig
    ? await writeKubeconfig(url, typeof options.kubeconfig === 'string' ? options.kubeconfig : undefined)
    : undefined;

  const settle = async (): Promise<void> => {
    // Controllers feed each other (deployment → replicaset → pods): wait until all are quiet at once.
    do {
      await Promise.all(controllers.map((c) => c.idle()));
      await new Promise((resolve) => setImmediate(resolve));
    } while (controllers.some((c) => c.busy));
  };

  return {
    url,
    kubeConfig: kubeConfigFor(url),
    ...(kubeconfigFile ? { kubeconfigPath: kubeconfigFile.path } : {}),
    store,
    objects,
    registry,
    faults,
    audit,
    watchDelays,
    typeOf(apiVersion, kind) {
      const type = registry.findByKind(apiVersion, kind);
      if (!type) throw new Error(`finding served type: no ${kind} in ${apiVersion}`);
      return type;
    },
    dropWatches() {
      for (const w of [...openWatches]) w.close();
    },
    sendBookmarks() {
      for (const w of openWatches) w.sendBookmark();
    },
    settle,
    controllerErrors: () => controllers.flatMap((c) => [...c.errors]),
    async close() {
      unsubscribe();
      for (const c of controllers) c.stop();
      for (const w of [...openWatches]) w.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      await kubeconfigFile?.remove();
    },
  };
}
