/**
 * The kubelet simulator: every running cloud instance becomes a Node (registered NotReady with the
 * `node.kubernetes.io/not-ready` taint, Ready after `readyDelayMs`), pods bound to its Nodes start after
 * `podStartDelayMs`, pods being deleted go once their grace period is over, and an instance that left the cloud
 * takes its Node NotReady, then away (the cloud-node-lifecycle controller's part), with its pods (pod GC).
 * A Ready node of a GPU flavor gets its DRA driver's ResourceSlice (dra-driver.ts).
 * All time is the injected Clock's; everything goes through the Kubernetes API.
 */
import { CoreV1Api, type KubeConfig, PatchStrategy, setHeaderOptions, type V1Node, type V1Pod } from '@kubernetes/client-node';
import { type Clock } from '../../../util/clock.js';
import { ObjectCache } from '../scheduler/object-cache.js';
import { type DriverNode, SimulatedDraDriver } from './dra-driver.js';
import { type CloudInstance, type CloudInstanceSource } from './instance-source.js';
import { DefaultReserved, nodeFor, readyCondition, TaintNotReady, withoutTaint, withTaint } from './node-manifest.js';
import { PodIpAllocator, runningStatus } from './pod-status.js';
import { runBounded } from './work-pool.js';

export const AnnotationSimulatedKubelet = 'karpenter-eu.io/simulated-kubelet';
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const writeConcurrency = 32;

export interface KubeletSimulatorOptions {
  kubeConfig: KubeConfig;
  clock: Clock;
  sources: CloudInstanceSource[];
  readyDelayMs?: number;
  podStartDelayMs?: number;
  /** How long a Node whose instance is gone stays NotReady before it is deleted. */
  nodeRemovalDelayMs?: number;
  pollIntervalMs?: number;
  /** Subtracted from capacity to give allocatable (default: the kubelet's 100Mi eviction threshold). */
  reserved?: Record<string, string>;
  /**
   * Device plugins on the node: extended resources they advertise in place of the flavor's, by instance (e.g.
   * NVIDIA's time-slicing with `replicas: 4` advertising `nvidia.com/gpu: 4` on a one-GPU L4 flavor).
   */
  devicePlugins?: (instance: CloudInstance) => Record<string, string> | undefined;
}

interface ManagedNode {
  instance: CloudInstance;
  registeredAt: number;
  ready: boolean;
  goneAt?: number;
  /** The kubelet hung while its instance runs on: the node lifecycle controller reports Ready Unknown. */
  stalled?: boolean;
}

export class KubeletSimulator {
  readonly nodes: ObjectCache<V1Node>;
  readonly pods: ObjectCache<V1Pod>;
  readonly draDriver: SimulatedDraDriver;
  /** Write failures kept for inspection (the simulator never throws on them). */
  readonly errors: unknown[] = [];
  private readonly api: CoreV1Api;
  private readonly managed = new Map<string, ManagedNode>();
  private readonly podSeenAt = new Map<string, number>();
  private readonly ips = new PodIpAllocator();
  private readonly abort = new AbortController();
  private syncing: Promise<void> = Promise.resolve();
  private loop: Promise<void> | undefined;

  constructor(private readonly options: KubeletSimulatorOptions) {
    this.api = options.kubeConfig.makeApiClient(CoreV1Api);
    this.nodes = new ObjectCache<V1Node>(options.kubeConfig, '/api/v1/nodes', () => this.api.listNode());
    this.pods = new ObjectCache<V1Pod>(options.kubeConfig, '/api/v1/pods', () => this.api.listPodForAllNamespaces());
    this.draDriver = new SimulatedDraDriver(options.kubeConfig);
  }

  async start(): Promise<void> {
    await Promise.all([this.nodes.start(), this.pods.start(), this.draDriver.start()]);
    this.loop = this.runLoop();
  }

  async stop(): Promise<void> {
    this.abort.abort(new Error('stopping kubelet simulator'));
    await this.loop;
    await this.syncing;
    await Promise.all([this.nodes.stop(), this.pods.stop(), this.draDriver.stop()]);
  }

  /**
   * The kubelet of `nodeName` stops posting status (hung, or cut off from the API server) while its instance
   * keeps running: on the next pass the Node turns Ready Unknown and stays so until `recover`.
   */
  stall(nodeName: string): void {
    const node = this.managed.get(nodeName);
    if (!node) throw new Error(`kubelet simulator: no node ${nodeName} to stall`);
    node.stalled = true;
  }

  /** The kubelet of `nodeName` posts status again: Ready on the next pass. */
  recover(nodeName: string): void {
    const node = this.managed.get(nodeName);
    if (node) node.stalled = false;
  }

  /** One reconcile pass; passes never overlap. */
  sync(): Promise<void> {
    this.syncing = this.syncing
      .then(() => this.syncOnce())
      .catch((error: unknown) => {
        this.errors.push(error);
      });
    return this.syncing;
  }

  private async runLoop(): Promise<void> {
    while (!this.abort.signal.aborted) {
      await this.sync();
      await this.options.clock.sleep(this.options.pollIntervalMs ?? 1_000, this.abort.signal).catch(() => undefined);
    }
  }

  private async syncOnce(): Promise<void> {
    const now = this.options.clock.now();
    const running = new Map(this.options.sources.flatMap((s) => s.running()).map((i) => [i.providerID, i]));
    this.adoptExistingNodes(running, now);
    await this.registerNewInstances(running, now);
    await this.progressNodes(running, now);
    await this.draDriver.publish(this.driverNodes()).catch((error: unknown) => this.errors.push(error));
    await this.progressPods(now);
  }

  /** Nodes whose kubelet runs and is Ready, with the Node as the watch shows it (its uid owns the slice). */
  private driverNodes(): DriverNode[] {
    const out: DriverNode[] = [];
    for (const [name, state] of this.managed) {
      const node = this.nodes.get(name);
      if (node && state.ready && !state.stalled && state.goneAt === undefined) out.push({ node, instance: state.instance });
    }
    return out;
  }

  /** Nodes this simulator registered before a restart are managed again. */
  private adoptExistingNodes(running: Map<string, CloudInstance>, now: number): void {
    for (const node of this.nodes.values()) {
      const name = node.metadata?.name ?? '';
      if (this.managed.has(name) || node.metadata?.annotations?.[AnnotationSimulatedKubelet] !== 'true') continue;
      const instance = running.get(node.spec?.providerID ?? '');
      const ready = node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
      if (instance) this.managed.set(name, { instance, registeredAt: now, ready });
    }
  }

  private async registerNewInstances(running: Map<string, CloudInstance>, now: number): Promise<void> {
    const known = new Set([...this.managed.values()].map((m) => m.instance.providerID));
    const fresh = [...running.values()].filter((i) => !known.has(i.providerID));
    await runBounded(
      fresh,
      writeConcurrency,
      async (instance) => {
        const body = nodeFor(instance, this.options.reserved ?? DefaultReserved, now, this.options.devicePlugins?.(instance));
        body.metadata = { ...body.metadata, annotations: { [AnnotationSimulatedKubelet]: 'true' } };
        try {
          await this.api.createNode({ body });
        } catch (error) {
          if (statusCode(error) !== 409) throw error;
        }
        this.managed.set(instance.nodeName, { instance, registeredAt: now, ready: false });
      },
      (error) => this.errors.push(error),
    );
  }

  private async progressNodes(running: Map<string, CloudInstance>, now: number): Promise<void> {
    const readyDelay = this.options.readyDelayMs ?? 5_000;
    const removalDelay = this.options.nodeRemovalDelayMs ?? 5_000;
    const work: Array<() => Promise<void>> = [];
    for (const [name, state] of this.managed) {
      if (!running.has(state.instance.providerID)) {
        if (state.goneAt === undefined) {
          state.goneAt = now;
          state.ready = false;
          work.push(() => this.markNotReady(name, now));
        } else if (now >= state.goneAt + removalDelay) {
          this.managed.delete(name);
          this.ips.release(name);
          work.push(() => this.deleteNode(name));
        }
      } else if (state.stalled) {
        if (state.ready) {
          state.ready = false;
          work.push(() => this.markNotReady(name, now));
        }
      } else if (!state.ready && now >= state.registeredAt + readyDelay) {
        state.ready = true;
        work.push(() => this.markReady(name, now));
      }
    }
    await runBounded(
      work,
      writeConcurrency,
      (w) => w(),
      (error) => this.errors.push(error),
    );
  }

  private async markReady(name: string, now: number): Promise<void> {
    await this.api.patchNodeStatus(
      { name, body: { status: { conditions: [readyCondition('True', 'KubeletReady', 'kubelet is posting ready status', now)] } } },
      mergePatch,
    );
    // The watch may not have shown the Node yet: then its taints are the ones it registered with.
    const taints = withoutTaint(this.nodes.get(name)?.spec?.taints ?? this.managed.get(name)?.instance.taints, TaintNotReady);
    await this.api.patchNode({ name, body: { spec: { taints: taints.length > 0 ? taints : null } } }, mergePatch);
  }

  private async markNotReady(name: string, now: number): Promise<void> {
    await this.api.patchNodeStatus(
      {
        name,
        body: { status: { conditions: [readyCondition('Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.', now)] } },
      },
      mergePatch,
    );
    const taints = withTaint(this.nodes.get(name)?.spec?.taints, { key: TaintNotReady, effect: 'NoSchedule' });
    await this.api.patchNode({ name, body: { spec: { taints } } }, mergePatch);
  }

  private async deleteNode(name: string): Promise<void> {
    await this.api.deleteNode({ name }).catch(ignoreNotFound);
  }

  private async progressPods(now: number): Promise<void> {
    const startDelay = this.options.podStartDelayMs ?? 1_000;
    const toStart: V1Pod[] = [];
    const toRemove: V1Pod[] = [];
    const live = new Set<string>();
    for (const pod of this.pods.values()) {
      const nodeName = pod.spec?.nodeName;
      if (!nodeName) continue;
      const uid = pod.metadata?.uid ?? '';
      live.add(uid);
      const node = this.managed.get(nodeName);
      // Pod GC's part: a pod bound to a Node that no longer exists goes.
      const orphaned = !node && !this.nodes.get(nodeName);
      if (!node && !orphaned) continue;
      if (pod.metadata?.deletionTimestamp) {
        if (now >= Date.parse(String(pod.metadata.deletionTimestamp)) || orphaned) toRemove.push(pod);
        continue;
      }
      if (orphaned) {
        toRemove.push(pod);
        continue;
      }
      if (!node?.ready || pod.status?.phase === 'Running' || pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') continue;
      const seenAt = this.podSeenAt.get(uid) ?? now;
      this.podSeenAt.set(uid, seenAt);
      if (now >= seenAt + startDelay) toStart.push(pod);
    }
    for (const uid of this.podSeenAt.keys()) if (!live.has(uid)) this.podSeenAt.delete(uid);
    await runBounded(
      toStart,
      writeConcurrency,
      (pod) => this.startPod(pod, now),
      (error) => this.errors.push(error),
    );
    await runBounded(
      toRemove,
      writeConcurrency,
      (pod) => this.removePod(pod),
      (error) => this.errors.push(error),
    );
  }

  private async startPod(pod: V1Pod, now: number): Promise<void> {
    const nodeName = pod.spec?.nodeName ?? '';
    const hostIP = this.managed.get(nodeName)?.instance.internalIP;
    const status = runningStatus(pod, this.ips.allocate(nodeName), hostIP, now);
    await this.api
      .patchNamespacedPodStatus({ namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '', body: { status } }, mergePatch)
      .catch(ignoreNotFound);
  }

  private async removePod(pod: V1Pod): Promise<void> {
    const uid = pod.metadata?.uid;
    await this.api
      .deleteNamespacedPod({
        namespace: pod.metadata?.namespace ?? '',
        name: pod.metadata?.name ?? '',
        gracePeriodSeconds: 0,
        ...(uid ? { body: { preconditions: { uid } } } : {}),
      })
      .catch(ignoreNotFound);
  }
}

export function statusCode(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? Number((error as { code: unknown }).code) : undefined;
}

function ignoreNotFound(error: unknown): void {
  const code = statusCode(error);
  if (code !== 404 && code !== 409) throw error;
}
