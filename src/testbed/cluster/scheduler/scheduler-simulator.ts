/**
 * The scheduler simulator: watches pods and nodes through the Kubernetes API, schedules pending pods of the
 * default scheduler (schedule-one.ts), binds them with `pods/binding`, and marks those that fit nowhere
 * `PodScheduled=False` (reason Unschedulable, or SchedulerError when a non-ignorable extender failed), retrying
 * with backoff and on cluster events. Pods with ResourceClaims are placed only where their claims can be
 * allocated (dra/), and each failure is also a `FailedScheduling` Event, as kube-scheduler records it.
 * Time is the injected Clock's.
 */
import {
  CoreV1Api,
  type CoreV1Event,
  type KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  type V1Node,
  type V1Pod,
} from '@kubernetes/client-node';
import { type Clock } from '../../../util/clock.js';
import { deviceSelectorMatcher } from './dra/device-matcher.js';
import { ClaimWriter } from './dra/claim-writer.js';
import { podClaimEntries } from './dra/dra-cycle.js';
import { DynamicResources } from './dra/dynamic-resources.js';
import { type DeviceSelectorMatcher, type WireResourceClaim } from './dra/types.js';
import { ExtenderClient } from './extender-client.js';
import { type ExtenderConfig, validateExtenderConfig } from './extender-config.js';
import { addPod, buildNodeInfos } from './node-info.js';
import { cacheKey, ObjectCache } from './object-cache.js';
import { type ScheduleCounters, schedulePod, type Snapshot } from './schedule-one.js';
import { DefaultQueueTimings, type QueueTimings, SchedulingQueue } from './scheduling-queue.js';
import { antiAffinityHolders, hasRequiredAntiAffinity } from './topology-filters.js';

export const DefaultSchedulerName = 'default-scheduler';
const strategicMerge = setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);
const idleWakeMs = 60_000;

export interface SchedulerSimulatorOptions {
  kubeConfig: KubeConfig;
  clock: Clock;
  extenders?: ExtenderConfig[];
  schedulerName?: string;
  queueTimings?: Partial<QueueTimings>;
  /** Bindings in flight at once (kube-scheduler binds asynchronously). */
  bindConcurrency?: number;
  /** Evaluates DRA device selectors (default: the test bed's CEL evaluator). */
  deviceSelectorMatcher?: DeviceSelectorMatcher;
}

export interface SchedulerStats extends ScheduleCounters {
  cycles: number;
  scheduled: number;
  unschedulable: number;
  schedulerErrors: number;
  bindFailures: number;
}

export class SchedulerSimulator {
  readonly nodes: ObjectCache<V1Node>;
  readonly pods: ObjectCache<V1Pod>;
  readonly dra: DynamicResources;
  readonly stats: SchedulerStats = {
    cycles: 0,
    scheduled: 0,
    unschedulable: 0,
    schedulerErrors: 0,
    bindFailures: 0,
    extenderFilterCalls: 0,
    extenderPrioritizeCalls: 0,
    extenderErrors: 0,
  };
  readonly errors: unknown[] = [];
  private readonly api: CoreV1Api;
  private extenders: ExtenderClient[];
  private readonly queue: SchedulingQueue;
  private readonly claimWriter: ClaimWriter;
  private readonly assumed = new Map<string, string>();
  private readonly abort = new AbortController();
  private dirty = true;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private cycling: Promise<void> = Promise.resolve();
  private nextStartIndex = 0;

  constructor(private readonly options: SchedulerSimulatorOptions) {
    for (const e of options.extenders ?? []) validateExtenderConfig(e);
    this.api = options.kubeConfig.makeApiClient(CoreV1Api);
    this.extenders = (options.extenders ?? []).map((e) => new ExtenderClient(e));
    this.queue = new SchedulingQueue({ ...DefaultQueueTimings, ...options.queueTimings });
    this.nodes = new ObjectCache<V1Node>(options.kubeConfig, '/api/v1/nodes', () => this.api.listNode());
    this.pods = new ObjectCache<V1Pod>(options.kubeConfig, '/api/v1/pods', () => this.api.listPodForAllNamespaces());
    this.dra = new DynamicResources(options.kubeConfig, options.deviceSelectorMatcher ?? deviceSelectorMatcher());
    this.claimWriter = new ClaimWriter(options.kubeConfig, this.dra);
    this.nodes.onChange(() => this.onClusterEvent());
    this.dra.onChange(() => this.onClusterEvent());
    this.pods.onChange((event, pod) => {
      const key = cacheKey(pod);
      if (event === 'delete' || pod.spec?.nodeName) this.assumed.delete(key);
      if (event === 'delete') this.queue.forget(key);
      if (event === 'delete' || (event === 'add' && pod.spec?.nodeName)) this.onClusterEvent();
      else this.kick();
    });
  }
  /**
   * Replaces the extenders, as restarting kube-scheduler with a new configuration does: a second scheduler whose
   * extender's CA lives in a Secret only starts once the service has written that Secret.
   */
  useExtenders(extenders: readonly ExtenderConfig[]): void {
    for (const e of extenders) validateExtenderConfig(e);
    this.extenders = extenders.map((e) => new ExtenderClient(e));
    this.kick();
  }

  async start(): Promise<void> {
    await Promise.all([this.nodes.start(), this.pods.start(), this.dra.start()]);
    this.loop = this.runLoop();
  }

  async stop(): Promise<void> {
    this.abort.abort(new Error('stopping scheduler simulator'));
    this.wake?.();
    await this.loop;
    await this.cycling;
    await Promise.all([this.nodes.stop(), this.pods.stop(), this.dra.stop()]);
  }

  /** Asks for a scheduling pass soon. */
  kick(): void {
    this.dirty = true;
    this.wake?.();
  }

  /** One pass over the pods that are ready to be tried, bindings included; passes never overlap. */
  cycle(): Promise<void> {
    this.cycling = this.cycling
      .then(() => this.cycleOnce())
      .catch((error: unknown) => {
        this.errors.push(error);
      });
    return this.cycling;
  }

  private onClusterEvent(): void {
    this.queue.moveAllOnEvent();
    this.kick();
  }

  private async runLoop(): Promise<void> {
    while (!this.abort.signal.aborted) {
      this.dirty = false;
      await this.cycle();
      if (this.dirty || this.abort.signal.aborted) continue;
      const now = this.options.clock.now();
      const next = this.queue.nextWake(now);
      await this.waitForWork(next === undefined ? idleWakeMs : Math.max(1, next - now));
    }
  }

  private async waitForWork(ms: number): Promise<void> {
    const timer = new AbortController();
    const onStop = (): void => timer.abort();
    this.abort.signal.addEventListener('abort', onStop, { once: true });
    await Promise.race([
      new Promise<void>((resolve) => (this.wake = resolve)),
      this.options.clock.sleep(ms, timer.signal).catch(() => undefined),
    ]);
    this.wake = undefined;
    timer.abort();
    this.abort.signal.removeEventListener('abort', onStop);
  }

  private isPending(pod: V1Pod): boolean {
    const phase = pod.status?.phase;
    return (
      !pod.spec?.nodeName &&
      !pod.metadata?.deletionTimestamp &&
      phase !== 'Succeeded' &&
      phase !== 'Failed' &&
      (pod.spec?.schedulerName ?? DefaultSchedulerName) === (this.options.schedulerName ?? DefaultSchedulerName)
    );
  }

  private snapshot(): Snapshot {
    const pods: V1Pod[] = [];
    for (const pod of this.pods.values()) {
      const assumedNode = pod.spec?.nodeName ? undefined : this.assumed.get(cacheKey(pod));
      pods.push(assumedNode ? { ...pod, spec: { ...pod.spec, containers: pod.spec?.containers ?? [], nodeName: assumedNode } } : pod);
    }
    const infos = buildNodeInfos(this.nodes.values(), pods);
    return { infos, ordered: [...infos.values()], antiAffinityHolders: antiAffinityHolders(infos), dra: this.dra.cycle() };
  }

  private async cycleOnce(): Promise<void> {
    const now = this.options.clock.now();
    const pending = [...this.pods.values()]
      .filter((p) => this.isPending(p) && !this.assumed.has(cacheKey(p)) && this.queue.ready(cacheKey(p), now))
      .sort(byPriorityThenAge);
    if (pending.length === 0) return;
    this.stats.cycles++;
    const mark = this.queue.eventMark();
    const snapshot = this.snapshot();
    const binds = new Set<Promise<void>>();
    for (const pod of pending) {
      const key = cacheKey(pod);
      const hasClaims = podClaimEntries(pod).length > 0;
      // PreEnqueue: a pod whose claims do not all exist yet is not tried; a claim event brings it back.
      if (hasClaims && snapshot.dra?.prepare(pod).gate?.stage === 'preEnqueue') continue;
      const outcome = await schedulePod(pod, snapshot, this.extenders, this.nextStartIndex, this.stats);
      this.nextStartIndex = snapshot.ordered.length > 0 ? (this.nextStartIndex + 1) % snapshot.ordered.length : 0;
      if (outcome.kind === 'scheduled') {
        const info = snapshot.infos.get(outcome.nodeName);
        const bound: V1Pod = { ...pod, spec: { ...pod.spec, containers: pod.spec?.containers ?? [], nodeName: outcome.nodeName } };
        if (info) {
          addPod(info, bound);
          if (hasRequiredAntiAffinity(bound)) snapshot.antiAffinityHolders.push({ pod: bound, info });
        }
        const claims = hasClaims && snapshot.dra ? snapshot.dra.reserve(pod, snapshot.dra.prepare(pod), outcome.nodeName) : [];
        this.assumed.set(key, outcome.nodeName);
        this.queue.forget(key);
        const bind = this.bind(pod, outcome.nodeName, claims, now, mark).finally(() => binds.delete(bind));
        binds.add(bind);
        if (binds.size >= (this.options.bindConcurrency ?? 32)) await Promise.race(binds);
      } else {
        this.queue.markFailed(key, now, mark);
        if (outcome.kind === 'unschedulable') this.stats.unschedulable++;
        else this.stats.schedulerErrors++;
        await this.reportFailure(pod, outcome.kind === 'unschedulable' ? 'Unschedulable' : 'SchedulerError', outcome.message, now);
      }
    }
    await Promise.all(binds);
  }

  private async bind(pod: V1Pod, nodeName: string, claims: WireResourceClaim[], now: number, mark: number): Promise<void> {
    const namespace = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    try {
      for (const claim of claims) await this.claimWriter.write(claim, pod);
      await this.api.createNamespacedPodBinding({
        namespace,
        name,
        body: {
          apiVersion: 'v1',
          kind: 'Binding',
          metadata: { name, namespace },
          target: { apiVersion: 'v1', kind: 'Node', name: nodeName },
        },
      });
      this.stats.scheduled++;
    } catch (error) {
      this.stats.bindFailures++;
      this.errors.push(error);
      for (const claim of claims) this.dra.forget(claim);
      this.assumed.delete(cacheKey(pod));
      this.queue.markFailed(cacheKey(pod), now, mark);
    }
  }

  private async reportFailure(pod: V1Pod, reason: string, message: string, now: number): Promise<void> {
    const current = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
    if (current?.status === 'False' && current.reason === reason && current.message === message) return;
    const condition = {
      type: 'PodScheduled',
      status: 'False',
      reason,
      message,
      lastProbeTime: null,
      lastTransitionTime: new Date(Math.floor(now / 1000) * 1000).toISOString().replace('.000Z', 'Z'),
    };
    await this.api
      .patchNamespacedPodStatus(
        { namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '', body: { status: { conditions: [condition] } } },
        strategicMerge,
      )
      .catch((error: unknown) => this.errors.push(error));
    await this.api
      .createNamespacedEvent({ namespace: pod.metadata?.namespace ?? '', body: failedSchedulingEvent(pod, message, now) })
      .catch((error: unknown) => this.errors.push(error));
  }
}

function byPriorityThenAge(a: V1Pod, b: V1Pod): number {
  const priority = (b.spec?.priority ?? 0) - (a.spec?.priority ?? 0);
  if (priority !== 0) return priority;
  const age = createdAt(a) - createdAt(b);
  return age !== 0 ? age : cacheKey(a).localeCompare(cacheKey(b));
}

function createdAt(pod: V1Pod): number {
  const at = pod.metadata?.creationTimestamp;
  return at ? new Date(at).getTime() : 0;
}

/** What kube-scheduler's event recorder writes for a pod it could not place (shown by `kubectl describe pod`). */
function failedSchedulingEvent(pod: V1Pod, message: string, now: number): CoreV1Event {
  const at = new Date(Math.floor(now / 1000) * 1000);
  return {
    metadata: { generateName: `${pod.metadata?.name ?? ''}.`, namespace: pod.metadata?.namespace ?? '' },
    involvedObject: {
      apiVersion: 'v1',
      kind: 'Pod',
      namespace: pod.metadata?.namespace ?? '',
      name: pod.metadata?.name ?? '',
      uid: pod.metadata?.uid ?? '',
      ...(pod.metadata?.resourceVersion ? { resourceVersion: pod.metadata.resourceVersion } : {}),
    },
    reason: 'FailedScheduling',
    message,
    type: 'Warning',
    action: 'Scheduling',
    source: { component: DefaultSchedulerName },
    reportingComponent: DefaultSchedulerName,
    reportingInstance: DefaultSchedulerName,
    firstTimestamp: at,
    lastTimestamp: at,
    count: 1,
  };
}
