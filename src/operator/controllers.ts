/**
 * Controllers as plug-ins: each is built from the same deps object by a factory and runs through
 * `start(signal)` while this replica leads. `runControllers` starts them together and, when one fails
 * beyond recovery, stops the others and reports the failure (the process then exits and restarts).
 */
import { setMaxListeners } from 'node:events';
import type { KubeConfig } from '@kubernetes/client-node';
import type { CloudProvider } from '../cloudprovider/types.js';
import type { Controller } from '../controllers/types.js';
import type { EventRecorder } from '../kube/events.js';
import type { Kube } from '../kube/types.js';
import type { Metrics } from '../metrics/registry.js';
import type { ClusterState } from '../state/cluster-state.js';
import type { Clock } from '../util/clock.js';
import { runAsController } from '../util/controller-name.js';
import type { Logger } from '../util/logger.js';
import type { OperatorConfig } from './options.js';
import type { ControllerSignals } from './relay.js';
import type { UnavailableOfferings } from '../cloudprovider/unavailable-offerings.js';

/** Everything a controller may depend on; factories take what they need. */
export interface ControllerDeps {
  config: OperatorConfig;
  kube: Kube;
  kubeConfig: KubeConfig;
  state: ClusterState;
  cloudProvider: CloudProvider;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  recorder: EventRecorder;
  /** Offerings recently out of stock, shared by the cloud providers and the lifecycle controller. */
  unavailableOfferings: UnavailableOfferings;
  signals: ControllerSignals;
}

export type ControllerFactory = (deps: ControllerDeps) => Controller;

/** A controller the operator can run: its name (known before it is built) and its factory. */
export interface ControllerPlugin {
  /** Same as the built controller's `name`, e.g. `provisioning`, `nodeclaim.lifecycle`. */
  name: string;
  create: ControllerFactory;
  /** Behind a feature gate: built only when this returns true. */
  enabled?: (config: OperatorConfig) => boolean;
}

/** The plugins the configuration turns on (all but those whose feature gate is off). */
export function enabledControllers(plugins: readonly ControllerPlugin[], config: OperatorConfig): ControllerPlugin[] {
  return plugins.filter((p) => p.enabled?.(config) ?? true);
}

export class ControllerFailedError extends Error {
  constructor(name: string, cause: unknown) {
    super(`running controller ${name}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'ControllerFailedError';
  }
}

/**
 * Runs every controller until `signal` aborts; resolves once all have settled. The first controller to
 * reject aborts the others, and the returned promise rejects with its error once they settled.
 */
export async function runControllers(controllers: readonly Controller[], signal: AbortSignal, logger: Logger): Promise<void> {
  const local = new AbortController();
  // Every controller waits on this one signal, often several times at once (sleeps, queues, informers): more
  // than Node's default of 10 listeners is the design, not a leak, and must not print a leak warning.
  setMaxListeners(0, local.signal);
  const forward = (): void => local.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });
  let failure: ControllerFailedError | undefined;
  // Leadership lasts until the signal, even when no controller (or only short-lived ones) runs.
  const aborted = new Promise<void>((resolve) => {
    if (local.signal.aborted) resolve();
    else local.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await Promise.all([
    aborted,
    ...controllers.map(async (controller) => {
      logger.info('starting controller', { controller: controller.name });
      try {
        await runAsController(controller.name, () => controller.start(local.signal));
        logger.info('controller stopped', { controller: controller.name });
      } catch (error) {
        logger.error('controller failed', { controller: controller.name, error });
        failure ??= new ControllerFailedError(controller.name, error);
        local.abort(failure);
      }
    }),
  ]);
  signal.removeEventListener('abort', forward);
  if (failure) throw failure;
}
