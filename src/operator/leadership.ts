/**
 * Runs the controllers only while this replica leads (or always, with leader election disabled). Shutting
 * down stops the controllers first and only then hands the lease back, so the next leader never overlaps
 * with work still in flight here.
 */
import type { Kube } from '../kube/types.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/logger.js';
import type { LeadershipFence } from './fence.js';
import { LeaderElector } from './leader-election.js';
import type { OperatorConfig } from './options.js';

export interface LeadershipOptions {
  config: OperatorConfig['leaderElection'];
  kube: Kube;
  clock: Clock;
  logger: Logger;
  /** Told of every renewal; ended the moment the controllers are told to stop (lease lost, or shutting down). */
  fence: LeadershipFence;
  /** Runs the controllers until the signal aborts; rejects on an unrecoverable controller fault. */
  lead(signal: AbortSignal): Promise<void>;
}

export class LeadershipLostError extends Error {
  constructor(identity: string) {
    super(`leading as ${identity}: lost the lease; exiting so that a restarted replica starts from fresh state`);
    this.name = 'LeadershipLostError';
  }
}

export interface Leadership {
  isLeading(): boolean;
  /** Settles when leadership ended by itself: rejects when the lease was lost or a controller failed. */
  readonly done: Promise<void>;
  /** Stops the controllers, then releases the lease. */
  stop(): Promise<void>;
}

export function startLeadership(options: LeadershipOptions): Leadership {
  const election = new AbortController();
  const controllers = new AbortController();
  let leading = false;
  let leadingRun: Promise<void> = Promise.resolve();
  let failure: unknown;
  let stopping = false;

  // Before anything else hears of it: no write may slip out between losing the lease and the controllers stopping.
  controllers.signal.addEventListener('abort', () => options.fence.end(stopping ? 'shutting down' : 'lost the lease'), { once: true });

  const lead = (leadership: AbortSignal): void => {
    leading = true;
    const stopControllers = (): void => controllers.abort();
    leadership.addEventListener('abort', stopControllers, { once: true });
    leadingRun = options.lead(controllers.signal).catch((error: unknown) => {
      failure = error;
      stopping = true;
      election.abort();
    });
  };

  const campaign = async (): Promise<void> => {
    if (!options.config.enabled) {
      lead(election.signal);
      await leadingRun;
    } else {
      const elector = new LeaderElector({
        kube: options.kube,
        clock: options.clock,
        lease: { name: options.config.leaseName, namespace: options.config.leaseNamespace },
        identity: options.config.identity,
        leaseDurationMs: options.config.leaseDurationMs,
        renewDeadlineMs: options.config.renewDeadlineMs,
        retryPeriodMs: options.config.retryPeriodMs,
        onStartedLeading: lead,
        onStoppedLeading: () => {
          leading = false;
        },
        onNewLeader: (identity) => options.logger.info('new leader observed', { leader: identity }),
        onRenewed: (startedAt) => options.fence.renewed(startedAt),
        logger: options.logger.child({ component: 'leader-election' }),
      });
      await elector.run(election.signal);
      await leadingRun;
    }
    leading = false;
    if (failure !== undefined) throw failure;
    if (!stopping) throw new LeadershipLostError(options.config.identity);
  };

  const done = campaign();
  done.catch(() => undefined);
  return {
    isLeading: () => leading,
    done,
    async stop() {
      stopping = true;
      controllers.abort();
      await leadingRun;
      election.abort();
      await done.catch(() => undefined);
    },
  };
}
