/**
 * Leader election on a coordination.k8s.io/v1 Lease, as client-go's leaderelection package does it, so
 * several replicas can run and only one controller acts. Expiry is judged on the local clock from when this
 * candidate last saw the lease change (client-go's observedTime), never from the timestamps written by
 * another replica, so clock skew between replicas cannot make two leaders. Writes carry the resourceVersion
 * read, so two candidates racing for an expired lease cannot both win (one gets 409).
 */
import type { V1Lease } from '@kubernetes/client-node';
import { isKubeNotFound } from '../kube/errors.js';
import { Resources } from '../kube/resources.js';
import type { Kube } from '../kube/types.js';
import type { Clock } from '../util/clock.js';
import { type Logger, silentLogger } from '../util/logger.js';

export interface LeaderElectionOptions {
  kube: Kube;
  clock: Clock;
  lease: { name: string; namespace: string };
  /** Unique per replica (the pod name plus a random suffix in `run`). */
  identity: string;
  /** How long a lease is honoured after its last renewal; default 15 s (client-go/controller-runtime). */
  leaseDurationMs?: number;
  /** The leader gives up when it could not renew for this long; default 10 s. */
  renewDeadlineMs?: number;
  /** Pause between attempts to acquire or renew; default 2 s. */
  retryPeriodMs?: number;
  /** On abort, hand the lease back at once instead of letting it expire; default true. */
  releaseOnCancel?: boolean;
  /** Called once leading; the signal aborts when leadership ends. */
  onStartedLeading: (signal: AbortSignal) => void;
  /** Called once when leadership ends (lost, or stopped). */
  onStoppedLeading: () => void;
  /** Called when another identity is seen holding the lease. */
  onNewLeader?: (identity: string) => void;
  /**
   * Called after each successful acquire or renew with when its attempt started, on `clock.elapsed()`: the
   * write fence counts its renew deadline from there.
   */
  onRenewed?: (attemptStartedAt: number) => void;
  logger?: Logger;
}

export class InvalidLeaderElectionConfigError extends Error {
  constructor(field: string, value: number, accepted: string) {
    super(`validating leader election: ${field} is ${value}, accepted: ${accepted}`);
    this.name = 'InvalidLeaderElectionConfigError';
  }
}

interface Timing {
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** client-go's checks: leaseDuration > renewDeadline > retryPeriod × 1.2 (its jitter factor). */
export function validateLeaderElectionTiming(t: Timing): void {
  if (!(t.retryPeriodMs > 0)) throw new InvalidLeaderElectionConfigError('retryPeriodMs', t.retryPeriodMs, 'a number > 0');
  if (!(t.renewDeadlineMs > t.retryPeriodMs * 1.2)) {
    throw new InvalidLeaderElectionConfigError(
      'renewDeadlineMs',
      t.renewDeadlineMs,
      `a number > retryPeriodMs × 1.2 (${t.retryPeriodMs * 1.2})`,
    );
  }
  if (!(t.leaseDurationMs > t.renewDeadlineMs)) {
    throw new InvalidLeaderElectionConfigError('leaseDurationMs', t.leaseDurationMs, `a number > renewDeadlineMs (${t.renewDeadlineMs})`);
  }
}

/** Lease times are MicroTime: RFC 3339 with microseconds. */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/Z$/, '000Z');
}

type Attempt = 'acquired' | 'held-by-other' | 'failed';

export class LeaderElector {
  private readonly timing: Timing;
  private readonly logger: Logger;
  private observedRecord = '';
  private observedAt = 0;
  private observedLease?: V1Lease;
  private leading = false;
  private lastLeader = '';
  /** `clock.elapsed()` when the last successful acquire or renew attempt started. */
  private renewedAt = 0;

  constructor(private readonly options: LeaderElectionOptions) {
    this.timing = {
      leaseDurationMs: options.leaseDurationMs ?? 15_000,
      renewDeadlineMs: options.renewDeadlineMs ?? 10_000,
      retryPeriodMs: options.retryPeriodMs ?? 2_000,
    };
    validateLeaderElectionTiming(this.timing);
    this.logger = (options.logger ?? silentLogger).child({
      component: 'leader-election',
      lease: `${options.lease.namespace}/${options.lease.name}`,
      identity: options.identity,
    });
  }

  isLeader(): boolean {
    return this.leading;
  }

  /**
   * Campaigns until leading, leads until the lease is lost or `signal` aborts, then returns. A replica that
   * lost the lease should exit (as Karpenter does) rather than run again: its in-memory marks are stale.
   */
  async run(signal: AbortSignal): Promise<void> {
    if (!(await this.acquire(signal))) return;
    const leadership = new AbortController();
    this.leading = true;
    this.logger.info('started leading');
    this.options.onStartedLeading(leadership.signal);
    try {
      await this.renewUntilLost(signal);
    } finally {
      this.leading = false;
      leadership.abort();
      this.logger.info('stopped leading');
      this.options.onStoppedLeading();
      if (signal.aborted && (this.options.releaseOnCancel ?? true)) await this.release();
    }
  }

  private async acquire(signal: AbortSignal): Promise<boolean> {
    while (!signal.aborted) {
      if ((await this.attempt()) === 'acquired') return true;
      if (!(await this.pause(signal))) return false;
    }
    return false;
  }

  /**
   * Renews until the lease is lost: another candidate holds it, or no attempt succeeded within the renew
   * deadline. A process that wakes from a freeze past the deadline still tries once: the write carries the
   * resourceVersion read, so it succeeds only if nobody took the lease meanwhile. Until it does, the write
   * fence (fence.ts) refuses every write on its own.
   */
  private async renewUntilLost(signal: AbortSignal): Promise<void> {
    while (await this.pause(signal)) {
      const attempt = await this.attempt();
      if (attempt === 'held-by-other') return this.logger.warn('lease taken by another candidate');
      if (attempt === 'failed' && this.pastRenewDeadline()) return this.logger.warn('failed to renew lease within the renew deadline');
    }
  }

  private pastRenewDeadline(): boolean {
    return this.options.clock.elapsed() - this.renewedAt >= this.timing.renewDeadlineMs;
  }

  /** One acquire-or-renew; a success counts from when it started, before anything was sent. */
  private async attempt(): Promise<Attempt> {
    const startedAt = this.options.clock.elapsed();
    const attempt = await this.tryAcquireOrRenew();
    if (attempt === 'acquired') {
      this.renewedAt = startedAt;
      this.options.onRenewed?.(startedAt);
    }
    return attempt;
  }

  /** Sleeps one retry period; false when aborted. */
  private async pause(signal: AbortSignal): Promise<boolean> {
    try {
      await this.options.clock.sleep(this.timing.retryPeriodMs, signal);
      return !signal.aborted;
    } catch {
      return false;
    }
  }

  private async tryAcquireOrRenew(): Promise<Attempt> {
    try {
      const lease = await this.readLease();
      if (!lease) return (await this.createLease()) ? 'acquired' : 'failed';
      this.observe(lease);
      const holder = lease.spec?.holderIdentity ?? '';
      const expired = this.options.clock.now() >= this.observedAt + this.timing.leaseDurationMs;
      if (holder !== '' && holder !== this.options.identity && !expired) return 'held-by-other';
      // While leading, a lease we no longer hold (released or handed over meanwhile) means someone else may have led.
      if (this.leading && holder !== this.options.identity) return 'held-by-other';
      await this.writeLease(lease, holder === this.options.identity);
      return 'acquired';
    } catch (err) {
      this.logger.debug('lease attempt failed', { error: err as Error });
      return 'failed';
    }
  }

  private async readLease(): Promise<V1Lease | undefined> {
    try {
      return await this.options.kube.get<V1Lease>(Resources.Lease, this.options.lease);
    } catch (err) {
      if (isKubeNotFound(err)) return undefined;
      throw err;
    }
  }

  private observe(lease: V1Lease): void {
    const spec = lease.spec ?? {};
    // The record without our own bookkeeping: any change to it, by anyone, restarts the expiry countdown.
    const record = JSON.stringify([spec.holderIdentity, spec.renewTime, spec.leaseTransitions, spec.leaseDurationSeconds]);
    if (record !== this.observedRecord) {
      this.observedRecord = record;
      this.observedAt = this.options.clock.now();
    }
    this.observedLease = lease;
    const holder = spec.holderIdentity ?? '';
    if (holder !== '' && holder !== this.lastLeader) {
      this.lastLeader = holder;
      if (holder !== this.options.identity) this.options.onNewLeader?.(holder);
    }
  }

  private spec(acquireTime: string, transitions: number): V1Lease['spec'] {
    return {
      holderIdentity: this.options.identity,
      leaseDurationSeconds: Math.ceil(this.timing.leaseDurationMs / 1000),
      acquireTime: acquireTime as unknown as Date,
      renewTime: microTime(this.options.clock.now()) as unknown as Date,
      leaseTransitions: transitions,
    };
  }

  private async createLease(): Promise<boolean> {
    const now = microTime(this.options.clock.now());
    const body: V1Lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { ...this.options.lease },
      spec: this.spec(now, 0),
    };
    try {
      this.observe(await this.options.kube.create(Resources.Lease, body));
      return true;
    } catch (err) {
      this.logger.debug('creating lease failed', { error: err as Error });
      return false;
    }
  }

  /** Replace with the resourceVersion read: a concurrent writer makes this fail with 409. */
  private async writeLease(lease: V1Lease, renewing: boolean): Promise<void> {
    const old = lease.spec ?? {};
    const acquireTime = renewing && old.acquireTime ? String(old.acquireTime) : microTime(this.options.clock.now());
    const transitions = (old.leaseTransitions ?? 0) + (renewing ? 0 : 1);
    const body: V1Lease = { ...lease, spec: this.spec(acquireTime, transitions) };
    this.observe(await this.options.kube.replace(Resources.Lease, body));
  }

  /** Hands the lease back (empty holder, 1 s duration) so a standby takes over without waiting for expiry. */
  private async release(): Promise<void> {
    const lease = this.observedLease;
    if (!lease || lease.spec?.holderIdentity !== this.options.identity) return;
    const spec = {
      ...lease.spec,
      holderIdentity: '',
      leaseDurationSeconds: 1,
      renewTime: microTime(this.options.clock.now()) as unknown as Date,
    };
    try {
      await this.options.kube.replace(Resources.Lease, { ...lease, spec });
      this.logger.info('released lease');
    } catch (err) {
      this.logger.warn('releasing lease failed', { error: err as Error });
    }
  }
}
