/**
 * The provisioning controller (Karpenter's `provisioning.Provisioner` + its pod trigger): pending pods —
 * from the pod source, the extender's `trigger`, or a periodic re-scan of cluster state — open a batch; when
 * the batch closes (idle / max window on the injected clock) one provisioning pass runs. Passes never overlap.
 */
import type { NodeClaim } from '../../apis/index.js';
import type { CloudProvider } from '../../cloudprovider/types.js';
import { type BatchWindowOptions, displacedPods, isProvisionable, LimitLedger } from '../../domain/provisioning/index.js';
import { podKey } from '../../domain/pods/index.js';
import type { EventRecorder } from '../../kube/events.js';
import type { Kube } from '../../kube/types.js';
import type { Metrics } from '../../metrics/registry.js';
import type { ClusterState } from '../../state/index.js';
import type { Clock } from '../../util/clock.js';
import { type Logger, silentLogger } from '../../util/logger.js';
import type { Controller } from '../types.js';
import { Batcher } from './batcher.js';
import type { PendingPodSource } from './pending-pods.js';
import { provisionPass, type ProvisioningResult } from './provision-pass.js';
import type { InFlightClaim } from './scheduling-input.js';

export interface ProvisioningOptions extends Partial<BatchWindowOptions> {
  /** Re-scan of state's pending pods (upstream requeues provisionable pods every 10 s). */
  resyncIntervalMs?: number;
  /** NodeClaims created in parallel per pass. */
  createConcurrency?: number;
}

export interface ProvisioningDeps {
  kube: Kube;
  state: ClusterState;
  cloudProvider: CloudProvider;
  clock: Clock;
  logger?: Logger;
  metrics?: Metrics;
  events?: EventRecorder;
  pendingPods?: PendingPodSource;
  /** Told about each NodeClaim as soon as it is created (the lifecycle controller launches it at once). */
  onNodeClaimCreated?: (nodeClaim: NodeClaim) => void;
  options?: ProvisioningOptions;
}

export interface ProvisioningController extends Controller {
  /** A pod needs capacity (the extender's onNeedsCapacity, the pod source): opens or extends a batch. */
  trigger(podKey: string): void;
  /** Runs one provisioning pass now, after any pass in progress. */
  provision(): Promise<ProvisioningResult>;
}

const DefaultResyncIntervalMs = 10_000;
const DefaultCreateConcurrency = 16;
const MaxLagRetries = 3;

export function createProvisioningController(deps: ProvisioningDeps): ProvisioningController {
  const options = deps.options ?? {};
  const logger = (deps.logger ?? silentLogger).child({ controller: 'provisioner' });
  const batcher = new Batcher(deps.clock, options);
  const ledger = new LimitLedger();
  const inFlight = new Map<string, InFlightClaim>();
  const nominations = new Map<string, string>();
  let chain: Promise<unknown> = Promise.resolve();

  const provision = (): Promise<ProvisioningResult> => {
    const run = chain.then(() =>
      provisionPass({
        ...deps,
        logger,
        ledger,
        inFlight,
        nominations,
        createConcurrency: options.createConcurrency ?? DefaultCreateConcurrency,
      }),
    );
    chain = run.catch(() => undefined);
    return run;
  };

  const resync = async (signal: AbortSignal): Promise<void> => {
    while (!signal.aborted) {
      await deps.clock.sleep(options.resyncIntervalMs ?? DefaultResyncIntervalMs, signal).catch(() => undefined);
      if (signal.aborted || !deps.state.synced()) continue;
      const snapshot = deps.state.snapshot();
      const waiting = [...snapshot.pendingPods, ...displacedPods(snapshot.nodes)];
      for (const pod of waiting) batcher.trigger(podKey(pod));
      // With nothing to batch, an empty pass still runs: it is what brings the gauges of waiting pods back to 0.
      if (waiting.length === 0)
        await provision().catch((error: unknown) => logger.error('provisioning pass failed', { error: error as Error }));
    }
  };

  // Pods the pod source announced before state's own watch showed them: batched again, a few times at most.
  const lagRetries = new Map<string, number>();
  const retriggerUnseen = (keys: readonly string[]): void => {
    for (const key of keys) {
      const [namespace = '', name = ''] = key.split('/');
      const pod = deps.state.pod(namespace, name);
      const retries = lagRetries.get(key) ?? 0;
      if (pod !== undefined || retries >= MaxLagRetries) {
        lagRetries.delete(key);
        continue;
      }
      lagRetries.set(key, retries + 1);
      batcher.trigger(key);
    }
  };

  const batches = async (signal: AbortSignal): Promise<void> => {
    for (;;) {
      let keys: string[];
      try {
        keys = await batcher.wait(signal);
      } catch {
        return; // aborted
      }
      try {
        const result = await provision();
        // Not synced yet: the pods are still pending; try again with the next window.
        if (result.skipped === 'not-synced') batcher.trigger('resync');
        else retriggerUnseen(keys);
      } catch (error) {
        logger.error('provisioning pass failed', { error: error as Error });
      }
    }
  };

  return {
    name: 'provisioning',
    trigger: (key) => batcher.trigger(key),
    provision,
    async start(signal: AbortSignal): Promise<void> {
      const unsubscribe = deps.pendingPods?.subscribe((pod) => {
        if (isProvisionable(pod)) batcher.trigger(podKey(pod));
      });
      try {
        await Promise.all([batches(signal), resync(signal)]);
        await chain;
      } finally {
        unsubscribe?.();
      }
    },
  };
}
