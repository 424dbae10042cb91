/**
 * The termination of one NodeClaim, one step per pass: taint → drain → volumes detached → CloudProvider.delete until
 * NodeClaimNotFound → Node gone → NodeClaim finalizer removed. Remembers per NodeClaim only what a pass
 * cannot re-derive: whether its start was reported and when a failed cloud delete may be retried.
 */
import type { V1Node } from '@kubernetes/client-node';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { findInChain, isNodeClaimNotFoundError, TransientCloudError } from '../../cloudprovider/errors.js';
import type { CloudProvider } from '../../cloudprovider/types.js';
import { deletionReasonOf } from '../../apis/v1/deletion-reasons.js';
import { terminationDeadlineOf } from '../../domain/termination/index.js';
import type { EventRecorder } from '../../kube/events.js';
import { Resources } from '../../kube/resources.js';
import type { Kube } from '../../kube/types.js';
import type { Metrics } from '../../metrics/registry.js';
import type { ClusterState } from '../../state/cluster-state.js';
import { type BackoffPolicy, nextDelay, type RandomSource } from '../../util/backoff.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/logger.js';
import { drainNode } from './node-drainer.js';
import { checkVolumeDetachment } from './volume-detachment-check.js';
import { deleteNode, removeTerminationFinalizer, taintDisrupted } from './object-operations.js';
import {
  publishAwaitingVolumeDetachment,
  publishCloudDeleteFailed,
  publishTerminated,
  publishTerminating,
  recordTerminated,
  reportTerminatedUnused,
  terminatedUnused,
} from './termination-reporting.js';

export interface NodeClaimTerminatorDeps {
  kube: Kube;
  state: ClusterState;
  cloudProvider: CloudProvider;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  events: EventRecorder;
  random: RandomSource;
  options?: { cloudDeleteBackoff?: Pick<BackoffPolicy, 'baseDelayMs' | 'maxDelayMs'> };
}

interface Progress {
  uid: string | undefined;
  reported: boolean;
  cloudDeleteFailures: number;
  nextCloudDeleteAt: number;
  /** The last volume-check outcome logged (each change is logged once, not every pass). */
  volumeCheckLogged?: string;
  finished: boolean;
}

const defaultCloudDeleteBackoff = { baseDelayMs: 1_000, maxDelayMs: 300_000 };

export class NodeClaimTerminator {
  private readonly progress = new Map<string, Progress>();
  private readonly backoff: BackoffPolicy;

  constructor(private readonly deps: NodeClaimTerminatorDeps) {
    this.backoff = { ...(deps.options?.cloudDeleteBackoff ?? defaultCloudDeleteBackoff), maxAttempts: Number.MAX_SAFE_INTEGER };
  }

  /** Drops what is remembered about NodeClaims no longer terminating (gone from state). */
  forgetAllBut(names: ReadonlySet<string>): void {
    for (const name of this.progress.keys()) if (!names.has(name)) this.progress.delete(name);
  }

  // eslint-disable-next-line complexity -- the termination steps in upstream's order, each an early return while it waits
  async reconcile(nodeClaim: NodeClaim): Promise<void> {
    const name = nodeClaim.metadata?.name ?? '';
    const progress = this.progressOf(nodeClaim);
    if (progress.finished) return;
    const { reason, unrecognised } = deletionReasonOf(nodeClaim);
    const log = this.deps.logger.child({ nodeClaim: name, providerID: nodeClaim.status?.providerID, reason });
    const node = this.nodeOf(nodeClaim);
    if (!progress.reported) {
      progress.reported = true;
      log.info('terminating nodeclaim', { node: node?.metadata?.name, unrecognisedReason: unrecognised });
      publishTerminating(this.deps.events, nodeClaim, node, reason);
    }
    if (node && !(await this.drained(nodeClaim, node, log))) return;
    if (node && !(await this.volumesDetached(nodeClaim, node, progress, log))) return;
    if (!(await this.instanceGone(nodeClaim, progress, log))) return;
    if (node) {
      await deleteNode(this.deps.kube, node.metadata?.name ?? '');
      await removeTerminationFinalizer(this.deps.kube, Resources.Node, node.metadata?.name ?? '');
    }
    if (!(await removeTerminationFinalizer(this.deps.kube, Resources.NodeClaim, name))) return;
    progress.finished = true;
    const outcome = { nodeClaim, node, reason, now: this.deps.clock.now() };
    recordTerminated(this.deps.metrics, outcome);
    publishTerminated(this.deps.events, outcome);
    if (terminatedUnused(nodeClaim)) reportTerminatedUnused(this.deps.metrics, this.deps.events, outcome);
    log.info('terminated nodeclaim', { node: node?.metadata?.name });
  }

  private progressOf(nodeClaim: NodeClaim): Progress {
    const name = nodeClaim.metadata?.name ?? '';
    const uid = nodeClaim.metadata?.uid;
    let progress = this.progress.get(name);
    // A new NodeClaim under a reused name starts afresh.
    if (!progress || progress.uid !== uid) {
      progress = { uid, reported: false, cloudDeleteFailures: 0, nextCloudDeleteAt: 0, finished: false };
      this.progress.set(name, progress);
    }
    return progress;
  }

  private nodeOf(nodeClaim: NodeClaim): V1Node | undefined {
    const providerID = nodeClaim.status?.providerID;
    const byProvider = providerID ? this.deps.state.nodeByProvider(providerID) : undefined;
    if (byProvider) return byProvider;
    const nodeName = nodeClaim.status?.nodeName;
    return nodeName ? this.deps.state.node(nodeName) : undefined;
  }

  /** Upstream's shortcut: a NotReady Node whose instance the cloud no longer has has nothing left to drain. */
  private async instanceAlreadyGone(nodeClaim: NodeClaim, node: V1Node): Promise<boolean> {
    const providerID = nodeClaim.status?.providerID;
    const ready = node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
    if (ready || !providerID) return false;
    try {
      await this.deps.cloudProvider.get(providerID);
      return false;
    } catch (error) {
      return isNodeClaimNotFoundError(error);
    }
  }

  private async drained(nodeClaim: NodeClaim, node: V1Node, log: Logger): Promise<boolean> {
    if (await this.instanceAlreadyGone(nodeClaim, node)) {
      log.info('node not ready and its instance is gone, skipping the drain', { node: node.metadata?.name });
      return true;
    }
    if (!(await taintDisrupted(this.deps.kube, node.metadata?.name ?? ''))) return true;
    return drainNode({ ...this.deps, logger: log }, node, this.deadlineOf(nodeClaim, log));
  }

  private deadlineOf(nodeClaim: NodeClaim, log: Logger): number | undefined {
    try {
      return terminationDeadlineOf(nodeClaim);
    } catch (error) {
      // A TGP the API server let through but we cannot read: wait without a deadline rather than force.
      log.warn('reading termination grace period failed, waiting without a deadline', { error });
      return undefined;
    }
  }

  /** After the drain: true once the node's volumes are detached (or can no longer be waited for). */
  private async volumesDetached(nodeClaim: NodeClaim, node: V1Node, progress: Progress, log: Logger): Promise<boolean> {
    const nodeName = node.metadata?.name ?? '';
    const check = await checkVolumeDetachment(
      this.deps.kube,
      this.deps.state,
      nodeName,
      this.deps.clock.now(),
      this.deadlineOf(nodeClaim, log),
    );
    if (check.kind === 'detached') return true;
    const report = progress.volumeCheckLogged !== check.kind;
    progress.volumeCheckLogged = check.kind;
    if (check.kind === 'unavailable') {
      if (report)
        log.warn('cannot list VolumeAttachments, deleting the instance without waiting for volumes to detach', {
          node: nodeName,
          error: check.error,
        });
      return true;
    }
    if (check.kind === 'deadline-passed') {
      if (report)
        log.warn('termination grace period over, deleting the instance with volumes still attached', {
          node: nodeName,
          volumeAttachments: check.attachments,
        });
      return true;
    }
    if (report) {
      log.info('waiting for volumes to detach before deleting the instance', { node: nodeName, volumeAttachments: check.attachments });
      publishAwaitingVolumeDetachment(this.deps.events, node, check.attachments);
    }
    return false;
  }

  /** Calls CloudProvider.delete (respecting the backoff); true once the cloud says the instance is gone. */
  private async instanceGone(nodeClaim: NodeClaim, progress: Progress, log: Logger): Promise<boolean> {
    const now = this.deps.clock.now();
    if (now < progress.nextCloudDeleteAt) return false;
    try {
      await this.deps.cloudProvider.delete(nodeClaim);
      log.debug('instance termination under way');
      return false;
    } catch (error) {
      if (isNodeClaimNotFoundError(error)) return true;
      const retryAfterMs = findInChain(error, TransientCloudError)?.retryAfterMs;
      const delay = Math.max(
        this.backoff.baseDelayMs,
        nextDelay(this.backoff, progress.cloudDeleteFailures, this.deps.random, retryAfterMs),
      );
      progress.cloudDeleteFailures += 1;
      progress.nextCloudDeleteAt = now + delay;
      log.warn('deleting instance failed, keeping the finalizer and retrying', {
        error,
        attempt: progress.cloudDeleteFailures,
        retryInMs: delay,
      });
      publishCloudDeleteFailed(this.deps.events, nodeClaim, error, delay);
      return false;
    }
  }
}
