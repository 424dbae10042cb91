/**
 * One cloud's chaos world in the test process: its emulator and the simulated cluster (API server, kubelet,
 * scheduler) on loopback, with the CRDs, webhook configurations, Secrets, NodeClass and NodePools installed —
 * and the real `karpenter-eu run` in a child process pointed at them by endpoints and credentials only.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubernetesObject } from '@kubernetes/client-node';
import {
  type CloudInstanceSource,
  outscaleInstanceSource,
  ovhcloudInstanceSource,
  scalewayInstanceSource,
  startSimulatedCluster,
  type SimulatedCluster,
} from '../../../src/testbed/cluster/index.js';
import { nodeClassesFor, nodePoolsFor } from '../../../src/testbed/demo/demo-manifests.js';
import {
  type DemoEnvironment,
  type Emulators,
  operatorEnvFor,
  seedSecrets,
  startEmulators,
  defaultTimings,
} from '../../../src/testbed/demo/environment.js';
import { freeLoopbackPort } from '../../../src/testbed/demo/free-port.js';
import { applyObjects, installCrds, installWebhookConfigurations, projectFile } from '../../../src/testbed/demo/install.js';
import type { FaultInjector } from '../../../src/testbed/emulators/faults.js';
import { SystemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';
import { createLoopbackCertificate } from '../../../src/util/tls.js';
import { outscaleScoped, scalewayScoped } from './cluster-scope.js';
import type { ObservedWorld } from './invariants.js';
import { type ChaosCloud, type CloudSide, clusterSide, outscaleSide, ovhcloudSide, scalewaySide } from './observe.js';
import { type OperatorProcess, startOperatorProcess } from './operator-process.js';
import { startServiceProxy } from './service-proxy.js';
import { writeKubeconfig } from '../../../src/testbed/cluster/apiserver/kubeconfig.js';

export const ChaosNamespace = 'default';

export interface ChaosWorldOptions {
  cloud: ChaosCloud;
  /** The cluster name the operator tags its instances with. */
  clusterName?: string;
  /** Garbage-collection period of the operator (a Go-style duration). */
  gcInterval?: string;
  /** Another world's emulators: a second cluster in the same cloud project (left to their owner to close). */
  sharedEmulators?: Emulators;
  /** Operator replicas that may run at once, each with its own ports, lease identity and API token (default 1). */
  replicas?: number;
  /** Node's own flags for the operator process (the chart's heap limit). */
  nodeArgs?: readonly string[];
  /** Run the operator from the build (`npm run build` first), as the image does. */
  fromBuild?: boolean;
  /** More `run` flags after the harness's own. */
  extraArgs?: readonly string[];
}

export interface ChaosWorld {
  cloud: ChaosCloud;
  cluster: SimulatedCluster;
  emulators: Emulators;
  /** The emulator's fault injector. */
  faults: FaultInjector;
  /** Sets how long a new instance (OVH: pool) stays out of the cloud's listings. */
  setListingLag(ms: number): void;
  observe(): ObservedWorld;
  /** How many replicas the world has room for. */
  replicas: number;
  /** The running operator process of a replica (default 0), if any. */
  operator(replica?: number): OperatorProcess | undefined;
  startOperator(replica?: number): OperatorProcess;
  /** SIGKILL; resolves once the process is gone. */
  killOperator(replica?: number): Promise<void>;
  /** SIGSTOP: the replica freezes and its webhooks and extender get no more traffic until it is resumed. */
  pauseOperator(replica?: number): void;
  /** SIGCONT. */
  resumeOperator(replica?: number): void;
  /**
   * SIGSTOP for `ms`, then SIGCONT: a CPU-throttled container (its cgroup quota spent) or a starved process. The
   * replica keeps its Service traffic, as a throttled pod does; one paused (pauseOperator) meanwhile stays paused.
   * False when the replica is not running or is paused.
   */
  throttleOperator(replica: number, ms: number): boolean;
  /** The user each replica's writes carry in the API server's audit log. */
  replicaUser(replica: number): string;
  /** Whether a replica answers its readiness probe (its caches synced). */
  replicaReady(replica: number): Promise<boolean>;
  /** Where the operators' logs are. */
  logDir: string;
  /** The first replica's listeners on loopback. */
  urls: { webhook: string; extender: string; metrics: string };
  close(): Promise<void>;
}

function emulatorOf(emulators: Emulators, cloud: ChaosCloud): { faults: FaultInjector; setConsistencyDelay(ms: number): void } {
  const emulator = emulators[cloud];
  if (!emulator) throw new Error(`no ${cloud} emulator was started`);
  return emulator;
}

function cloudSide(emulators: Emulators, cloud: ChaosCloud, clusterName: string): CloudSide {
  if (cloud === 'scaleway' && emulators.scaleway) return scalewaySide(scalewayScoped(emulators.scaleway, clusterName));
  if (cloud === 'outscale' && emulators.outscale) return outscaleSide(outscaleScoped(emulators.outscale, clusterName));
  if (cloud === 'ovhcloud' && emulators.ovhcloud) return ovhcloudSide(emulators.ovhcloud);
  throw new Error(`no ${cloud} emulator was started`);
}

interface Ports {
  webhook: number;
  extender: number;
  metrics: number;
}

/** The lease the replicas compete for, and its timing (short, so the next process leads within seconds). */
export const ChaosLease = { namespace: 'karpenter', name: 'karpenter-eu-leader-election', durationMs: 3_000 };

function operatorArgs(
  options: { clusterName: string; gcInterval: string; identity: string },
  ports: Ports,
  files: { kubeconfig: string; cert: string; key: string },
): string[] {
  return [
    `--kubeconfig=${files.kubeconfig}`,
    `--cluster-name=${options.clusterName}`,
    '--bind-address=127.0.0.1',
    `--webhook-port=${ports.webhook}`,
    `--webhook-cert-file=${files.cert}`,
    `--webhook-key-file=${files.key}`,
    `--extender-port=${ports.extender}`,
    `--metrics-port=${ports.metrics}`,
    '--batch-idle-duration=300ms',
    '--batch-max-duration=2s',
    '--disruption-interval=1s',
    '--disruption-validation-delay=1s',
    '--drift-check-interval=5s',
    `--gc-interval=${options.gcInterval}`,
    `--leader-election-namespace=${ChaosLease.namespace}`,
    `--leader-election-identity=${options.identity}`,
    // A killed leader's lease runs out quickly, so the next process leads within seconds.
    `--leader-election-lease-duration=${ChaosLease.durationMs / 1000}s`,
    '--leader-election-renew-deadline=2s',
    '--leader-election-retry-period=250ms',
    `--log-level=${process.env.CHAOS_LOG_LEVEL ?? 'info'}`,
  ];
}

async function writeFiles(
  dir: string,
  certificate: { certPem: string; keyPem: string },
  emulators: Emulators,
): Promise<{ cert: string; key: string; ca?: string }> {
  const cert = join(dir, 'tls.crt');
  const key = join(dir, 'tls.key');
  await writeFile(cert, certificate.certPem);
  await writeFile(key, certificate.keyPem, { mode: 0o600 });
  if (!emulators.ovhcloud) return { cert, key };
  // The ovh client has no CA option; a real deployment would add the CA the same way.
  const ca = join(dir, 'ovh-ca.pem');
  await writeFile(ca, emulators.ovhcloud.caPem);
  return { cert, key, ca };
}

/** Replica i's API token and the user name the API server knows it by. */
const replicaToken = (i: number): string => `chaos-replica-${i}`;
export const replicaUserName = (i: number): string => `karpenter-eu-replica-${i}`;

interface Replica {
  ports: Ports;
  kubeconfig: string;
  process?: OperatorProcess;
  paused: boolean;
}

/** A replica that would answer a Service's traffic: started, not exited, not frozen. */
function ready(replica: Replica): boolean {
  return replica.process !== undefined && !replica.paused;
}

/** The kubelet's view of the cloud: only the instances that join this cluster. */
function scopedSources(emulators: Emulators, clusterName: string): CloudInstanceSource[] {
  return [
    ...(emulators.ovhcloud ? [ovhcloudInstanceSource(emulators.ovhcloud)] : []),
    ...(emulators.scaleway ? [scalewayInstanceSource(scalewayScoped(emulators.scaleway, clusterName))] : []),
    ...(emulators.outscale ? [outscaleInstanceSource(outscaleScoped(emulators.outscale, clusterName))] : []),
  ];
}

async function replicaPorts(): Promise<Ports> {
  return { webhook: await freeLoopbackPort(), extender: await freeLoopbackPort(), metrics: await freeLoopbackPort() };
}

export async function startChaosWorld(input: ChaosWorldOptions): Promise<ChaosWorld> {
  const options: Required<Omit<ChaosWorldOptions, 'sharedEmulators' | 'nodeArgs' | 'extraArgs' | 'fromBuild'>> = {
    clusterName: 'chaos',
    gcInterval: '2s',
    replicas: 1,
    ...input,
  };
  const clock = new SystemClock();
  const logDir = await mkdtemp(join(tmpdir(), `karpenter-eu-chaos-${options.cloud}-`));
  const shared = input.sharedEmulators;
  // The kubelet and the invariants see only the instances not marked for another cluster (cluster-scope.ts).
  const scope = options.clusterName;
  const emulators =
    shared ?? (await startEmulators({ clouds: [options.cloud], clock, logger: silentLogger, controllers: [] }, defaultTimings));
  const replicas: Replica[] = [];
  for (let i = 0; i < options.replicas; i++)
    replicas.push({ ports: await replicaPorts(), kubeconfig: join(logDir, `kubeconfig-${i}`), paused: false });
  const first = replicas[0] as Replica;
  const live = (): Replica => replicas.find(ready) ?? first;
  // One replica: its extender directly; several: a Service in front, so a frozen one gets no scheduler calls.
  const extender = options.replicas > 1 ? await startServiceProxy(() => live().ports.extender) : undefined;
  const cluster = await startSimulatedCluster({
    clock,
    cloudSources: scopedSources(emulators, scope),
    extender: {
      urlPrefix: `http://127.0.0.1:${extender?.port ?? first.ports.extender}/scheduler`,
      filterVerb: 'filter',
      prioritizeVerb: 'prioritize',
      weight: 1,
      nodeCacheCapable: true,
      ignorable: true,
    },
    apiServer: {
      resolveService: (svc) => (svc.name === 'karpenter-eu' ? `https://127.0.0.1:${live().ports.webhook}${svc.path ?? '/'}` : undefined),
      kubeconfig: join(logDir, 'kubeconfig'),
      tokens: Object.fromEntries(replicas.map((_, i) => [replicaToken(i), replicaUserName(i)])),
    },
    kubelet: { readyDelayMs: defaultTimings.readyMs, podStartDelayMs: 50, nodeRemovalDelayMs: defaultTimings.readyMs, pollIntervalMs: 100 },
  });
  const certificate = await createLoopbackCertificate();
  await installCrds(cluster.kubeConfig);
  await seedSecrets(cluster, emulators);
  await installWebhookConfigurations(cluster.kubeConfig, projectFile('manifests/webhooks/webhook-configurations.yaml'), certificate.caPem);
  const files = await writeFiles(logDir, certificate, emulators);
  for (const [i, r] of replicas.entries()) await writeKubeconfig(cluster.apiServer.url, r.kubeconfig, replicaToken(i));
  const env = { ...operatorEnvFor(emulators), ...(files.ca ? { NODE_EXTRA_CA_CERTS: files.ca } : {}) } as Record<string, string>;
  const argsOf = (i: number): string[] => [
    ...operatorArgs({ ...options, identity: options.replicas > 1 ? `chaos-${i}` : 'chaos' }, (replicas[i] as Replica).ports, {
      ...files,
      kubeconfig: (replicas[i] as Replica).kubeconfig,
    }),
    ...(input.extraArgs ?? []),
  ];
  const emulator = emulatorOf(emulators, options.cloud);
  const replica = (i = 0): Replica => {
    const r = replicas[i];
    if (!r) throw new Error(`replica ${i}: the world has ${replicas.length}`);
    return r;
  };

  const world: ChaosWorld = {
    cloud: options.cloud,
    cluster,
    emulators,
    faults: emulator.faults,
    logDir,
    urls: {
      webhook: `https://127.0.0.1:${first.ports.webhook}`,
      extender: `http://127.0.0.1:${first.ports.extender}`,
      metrics: `http://127.0.0.1:${first.ports.metrics}`,
    },
    setListingLag: (ms) => emulator.setConsistencyDelay(ms),
    observe: () => ({ ...cloudSide(emulators, options.cloud, scope), ...clusterSide(cluster.apiServer, options.cloud, ChaosNamespace) }),
    replicas: replicas.length,
    operator: (i) => replica(i).process,
    startOperator(i = 0) {
      const r = replica(i);
      const started = startOperatorProcess({
        args: argsOf(i),
        env,
        logDir,
        ...(replicas.length > 1 ? { label: `replica-${i}` } : {}),
        ...(input.nodeArgs ? { nodeArgs: input.nodeArgs } : {}),
        ...(input.fromBuild ? { fromBuild: true } : {}),
      });
      r.process = started;
      r.paused = false;
      // An exited replica serves nothing: the Service stops sending it traffic.
      void started.exited.then(() => {
        if (r.process === started) r.process = undefined;
      });
      return started;
    },
    async killOperator(i) {
      // A process started while this kill waited for the exit is the new current one: it must stay tracked.
      const r = replica(i);
      const victim = r.process;
      await victim?.kill();
      if (r.process === victim) r.process = undefined;
    },
    pauseOperator(i) {
      const r = replica(i);
      r.paused = true;
      r.process?.pause();
    },
    resumeOperator(i) {
      const r = replica(i);
      r.process?.resume();
      r.paused = false;
    },
    throttleOperator(i, ms) {
      const r = replica(i);
      const running = r.process;
      if (!running || r.paused) return false;
      running.pause();
      setTimeout(() => {
        if (!r.paused && r.process === running) running.resume();
      }, ms);
      return true;
    },
    replicaUser: replicaUserName,
    async replicaReady(i) {
      const answer = await fetch(`http://127.0.0.1:${replica(i).ports.metrics}/readyz`).catch(() => undefined);
      return answer?.status === 200;
    },
    async close() {
      for (const r of replicas) await r.process?.kill();
      await extender?.close();
      await cluster.close();
      if (!shared) for (const e of [emulators.ovhcloud, emulators.scaleway, emulators.outscale]) await e?.close().catch(() => undefined);
      if (!process.env.CHAOS_KEEP_LOGS) await rm(logDir, { recursive: true, force: true });
    },
  };
  // The NodeClass and NodePools go through the webhooks, which need the operator: they are applied by `install`.
  return world;
}

/** Applies the cloud's example NodeClass and NodePools (the operator must be serving its webhooks). */
export async function installExamples(world: ChaosWorld): Promise<void> {
  const env = { outscale: world.emulators.outscale } as unknown as DemoEnvironment;
  const objects: KubernetesObject[] = [...nodeClassesFor(world.cloud, env), ...nodePoolsFor(world.cloud)];
  await applyObjects(world.cluster.kubeConfig, objects);
}
