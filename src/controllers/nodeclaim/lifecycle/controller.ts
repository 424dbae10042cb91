/**
 * The NodeClaim lifecycle controller: one reconcile per NodeClaim, never two at once for the same one,
 * driving Launched → Registered → Initialized and deleting NodeClaims that outlive the launch or
 * registration timeout. NodeClaims come from `enqueue` (the provisioner, right after create) and from a
 * periodic re-scan of cluster state; each reconcile reads the NodeClaim fresh from the API server so a
 * stale cache never launches twice.
 */
import { FinalizerTermination, type NodeClaim } from '../../../apis/index.js';
import type { CloudProvider } from '../../../cloudprovider/types.js';
import type { UnavailableOfferings } from '../../../cloudprovider/unavailable-offerings.js';
import {
  DefaultLifecycleTimeouts,
  lifecyclePhase,
  type LifecycleTimeouts,
  livenessTimeout,
  nextLivenessDeadline,
} from '../../../domain/provisioning/index.js';
import type { EventRecorder } from '../../../kube/events.js';
import { isKubeNotFound } from '../../../kube/errors.js';
import { Resources } from '../../../kube/resources.js';
import type { Kube } from '../../../kube/types.js';
import type { ReconcileResult } from '../../../metrics/reconcile-metrics.js';
import type { Metrics } from '../../../metrics/registry.js';
import type { ClusterState } from '../../../state/index.js';
import { type BackoffPolicy, nextDelay, type RandomSource } from '../../../util/backoff.js';
import type { Clock } from '../../../util/clock.js';
import { type Logger, silentLogger } from '../../../util/logger.js';
import type { Controller } from '../../types.js';
import { deleteWithReason } from './claim-writes.js';
import { initialize } from './initialization.js';
import { launch } from './launch.js';
import { register } from './registration.js';
import { WorkQueue } from './work-queue.js';
import { markWorkloadBound } from './workload-marker.js';

export interface LifecycleOptions {
  timeouts?: Partial<LifecycleTimeouts>;
  /** How often NodeClaims not yet initialized are reconciled again (a Node may have appeared). */
  resyncIntervalMs?: number;
  /** Retries of a failed launch or API write. */
  retryBackoff?: Pick<BackoffPolicy, 'baseDelayMs' | 'maxDelayMs'>;
  concurrency?: number;
}

export interface LifecycleDeps {
  kube: Kube;
  state: ClusterState;
  cloudProvider: CloudProvider;
  clock: Clock;
  logger?: Logger;
  metrics?: Metrics;
  events?: EventRecorder;
  unavailableOfferings?: UnavailableOfferings;
  /** A NodeClaim was deleted for lack of capacity: wire to the provisioner's trigger to re-plan its pods. */
  onCapacityShortage?: () => void;
  random?: RandomSource;
  options?: LifecycleOptions;
}

export type ReconcileOutcome =
  | { kind: 'gone' | 'deleting' | 'initialized' | 'deleted' }
  | { kind: 'launched' | 'registered' | 'waiting'; detail?: string; retryAt?: number }
  | { kind: 'retry'; error: Error };

export interface LifecycleController extends Controller {
  /** Reconcile this NodeClaim as soon as possible. */
  enqueue(name: string): void;
  /** One reconcile of the NodeClaim now (tests, and what the queue runs). */
  reconcile(name: string): Promise<ReconcileOutcome>;
}

const DefaultResyncIntervalMs = 1_000;
const DefaultRetryBackoff = { baseDelayMs: 500, maxDelayMs: 60_000 };
const DefaultConcurrency = 32;

export function createLifecycleController(deps: LifecycleDeps): LifecycleController {
  const options = deps.options ?? {};
  const timeouts: LifecycleTimeouts = { ...DefaultLifecycleTimeouts, ...options.timeouts };
  const logger = (deps.logger ?? silentLogger).child({ controller: 'nodeclaim.lifecycle' });
  const random = deps.random ?? Math.random;
  const backoff: BackoffPolicy = { ...DefaultRetryBackoff, ...options.retryBackoff, maxAttempts: Number.MAX_SAFE_INTEGER };
  const controllerName = 'nodeclaim.lifecycle';
  const queue = new WorkQueue(
    deps.metrics && { instruments: deps.metrics.reconciles.queue(controllerName, controllerName), now: () => deps.clock.now() },
  );
  const failures = new Map<string, number>();
  let wake: (() => void) | undefined;

  const enqueue = (name: string, at = deps.clock.now()): void => {
    queue.add(name, at);
    wake?.();
  };

  const step = async (fetched: NodeClaim): Promise<ReconcileOutcome> => {
    let claim = fetched;
    const now = deps.clock.now();
    const phase = lifecyclePhase(claim);
    if (phase === 'deleting') return { kind: 'deleting' };
    if (phase === 'initialized') return { kind: 'initialized' };
    const timedOut = livenessTimeout(claim, now, timeouts);
    if (timedOut) {
      logger.warn('nodeclaim timed out; deleting', { nodeclaim: claim.metadata?.name, reason: timedOut.reason });
      await deleteWithReason(deps.kube, deps.events, claim, timedOut.reason, timedOut.message);
      return { kind: 'deleted' };
    }
    if (phase === 'launching') {
      // The finalizer goes on before any instance exists, so deleting the NodeClaim always reaches the cloud.
      claim = await ensureTerminationFinalizer(deps.kube, claim);
      const launched = await launch({ ...deps, logger }, claim);
      if (launched.kind === 'failed') return { kind: 'retry', error: launched.error };
      if (launched.kind === 'pending') return { kind: 'waiting', detail: launched.reason, retryAt: launched.retryAt };
      return launched.kind === 'deleted' ? { kind: 'deleted' } : { kind: 'launched' };
    }
    if (phase === 'registering') return (await register(deps, claim)) ? { kind: 'registered' } : { kind: 'waiting', detail: 'no node yet' };
    const initialized = await initialize(deps, claim);
    return initialized.kind === 'initialized' ? { kind: 'initialized' } : { kind: 'waiting', detail: initialized.blockers.join('; ') };
  };

  const reconcile = async (name: string): Promise<ReconcileOutcome> => {
    let claim: NodeClaim;
    try {
      claim = await deps.kube.get<NodeClaim>(Resources.NodeClaim, { name });
    } catch (error) {
      if (isKubeNotFound(error)) return { kind: 'gone' };
      return { kind: 'retry', error: error as Error };
    }
    try {
      const outcome = await step(claim);
      // Launched or registered: go on with the next step at once.
      if (outcome.kind === 'launched' || outcome.kind === 'registered') enqueue(name);
      else if (outcome.kind === 'waiting') {
        const deadline = outcome.retryAt ?? nextLivenessDeadline(claim, timeouts);
        if (deadline !== undefined) enqueue(name, deadline);
      }
      return outcome;
    } catch (error) {
      return { kind: 'retry', error: error as Error };
    }
  };

  const runOne = async (name: string): Promise<void> => {
    const started = deps.clock.now();
    try {
      const outcome = await reconcile(name);
      deps.metrics?.reconciles.record(controllerName, reconcileResult(outcome), (deps.clock.now() - started) / 1000);
      logger.debug('reconciled nodeclaim', {
        nodeclaim: name,
        outcome: outcome.kind,
        ...(outcome.kind === 'waiting' ? { detail: outcome.detail } : {}),
      });
      if (outcome.kind === 'retry') {
        const attempt = failures.get(name) ?? 0;
        failures.set(name, attempt + 1);
        logger.warn('reconciling nodeclaim failed; retrying', { nodeclaim: name, attempt: attempt + 1, error: outcome.error });
        queue.add(name, deps.clock.now() + Math.max(1, nextDelay(backoff, attempt, random)));
      } else failures.delete(name);
    } finally {
      queue.done(name);
      wake?.();
    }
  };

  const resync = (): void => {
    for (const n of deps.state.stateNodes()) {
      const claim = n.nodeClaim;
      if (!claim) continue;
      const phase = lifecyclePhase(claim);
      if (phase !== 'initialized' && phase !== 'deleting') queue.add(claim.metadata?.name ?? '', deps.clock.now());
    }
  };

  return {
    name: controllerName,
    enqueue: (name) => enqueue(name),
    reconcile,
    async start(signal: AbortSignal): Promise<void> {
      const running = new Set<Promise<void>>();
      let nextResync = deps.clock.now();
      const resyncMs = options.resyncIntervalMs ?? DefaultResyncIntervalMs;
      markWorkloadBound({ ...deps, logger }, signal);
      while (!signal.aborted) {
        const now = deps.clock.now();
        if (now >= nextResync) {
          if (deps.state.synced()) resync();
          nextResync = now + resyncMs;
        }
        for (const name of queue.takeDue(now, options.concurrency ?? DefaultConcurrency)) {
          const p = runOne(name).finally(() => running.delete(p));
          running.add(p);
        }
        const until = Math.min(nextResync, queue.nextDueAt() ?? Infinity);
        await sleepUntilWoken(deps.clock, Math.max(1, until - deps.clock.now()), signal, (w) => (wake = w));
      }
      await Promise.allSettled([...running]);
    },
  };
}

/** controller-runtime's result label for a NodeClaim's reconcile outcome. */
function reconcileResult(outcome: ReconcileOutcome): ReconcileResult {
  if (outcome.kind === 'retry') return 'error';
  return outcome.kind === 'waiting' ? 'requeue_after' : 'success';
}

/** Adds `karpenter.sh/termination` to the NodeClaim (a JSON patch with a test, so a concurrent change is not lost). */
async function ensureTerminationFinalizer(kube: Kube, claim: NodeClaim): Promise<NodeClaim> {
  const finalizers = claim.metadata?.finalizers;
  if (finalizers?.includes(FinalizerTermination)) return claim;
  const ops = finalizers
    ? [
        { op: 'test' as const, path: '/metadata/finalizers', value: finalizers },
        { op: 'add' as const, path: '/metadata/finalizers/-', value: FinalizerTermination },
      ]
    : [{ op: 'add' as const, path: '/metadata/finalizers', value: [FinalizerTermination] }];
  return kube.patch<NodeClaim>(Resources.NodeClaim, { name: claim.metadata?.name ?? '' }, { type: 'json', body: ops });
}

/** Sleeps `ms` on the clock, or less when `register`'s callback is called or the signal aborts. */
async function sleepUntilWoken(clock: Clock, ms: number, signal: AbortSignal, register: (wake: () => void) => void): Promise<void> {
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  register(() => stop.abort());
  try {
    await clock.sleep(ms, stop.signal).catch(() => undefined);
  } finally {
    signal.removeEventListener('abort', onAbort);
    register(() => undefined);
  }
}
