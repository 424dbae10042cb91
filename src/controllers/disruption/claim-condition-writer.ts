/**
 * Writes the Drifted/Consolidatable condition and lastPodEventTime changes each disruption pass computes. Off
 * the decision path: a pass hands its changes over and goes on; while one batch is being written the next pass's
 * changes are dropped (that pass recomputes them anyway). Each write is a status merge patch carrying the
 * resourceVersion it was computed from, so a NodeClaim another controller just updated is never overwritten with
 * stale conditions: the conflict is skipped and the next pass recomputes from the fresh object.
 */
import type { NodeClaim } from '../../apis/index.js';
import type { ClaimConditionChange } from '../../domain/disruption/index.js';
import { isKubeConflict, isKubeNotFound, type Kube, Resources } from '../../kube/index.js';
import type { Logger } from '../../util/logger.js';

export class ClaimConditionWriter {
  private writing: Promise<void> | undefined;

  constructor(
    private readonly kube: Kube,
    private readonly logger: Logger,
  ) {}

  submit(changes: readonly ClaimConditionChange[]): void {
    if (this.writing || changes.length === 0) return;
    this.writing = this.write(changes).finally(() => (this.writing = undefined));
  }

  /** Resolves when the batch being written, if any, is done (tests, shutdown). */
  async idle(): Promise<void> {
    await this.writing;
  }

  private async write(changes: readonly ClaimConditionChange[]): Promise<void> {
    for (const change of changes) {
      const metadata = change.resourceVersion === undefined ? {} : { metadata: { resourceVersion: change.resourceVersion } };
      const lastPodEvent = change.lastPodEventTime === undefined ? {} : { lastPodEventTime: change.lastPodEventTime };
      try {
        await this.kube.patch<NodeClaim>(
          Resources.NodeClaim,
          { name: change.nodeClaim },
          { type: 'merge', body: { ...metadata, status: { conditions: change.conditions, ...lastPodEvent } } },
          { status: true },
        );
      } catch (error) {
        if (isKubeConflict(error) || isKubeNotFound(error)) continue;
        this.logger.warn('writing NodeClaim conditions', { nodeClaim: change.nodeClaim, error });
      }
    }
  }
}
