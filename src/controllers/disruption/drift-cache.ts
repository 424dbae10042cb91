/**
 * `CloudProvider.isDrifted` answers, refreshed at most every `intervalMs` per NodeClaim (upstream requeues
 * drift every 5 min) so a loop over 1,000 nodes does not call the cloud 1,000 times every 10 s.
 */
import type { NodeClaim } from '../../apis/index.js';
import type { CloudProvider } from '../../cloudprovider/types.js';
import type { Logger } from '../../util/logger.js';

interface Entry {
  reason: string | undefined;
  checkedAt: number;
}

export class DriftCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly cloudProvider: CloudProvider,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  async reasons(nodeClaims: readonly NodeClaim[], now: number): Promise<Map<string, string | undefined>> {
    const out = new Map<string, string | undefined>();
    await Promise.all(
      nodeClaims.map(async (claim) => {
        const key = claim.metadata?.uid ?? claim.metadata?.name ?? '';
        const cached = this.entries.get(key);
        if (cached && now - cached.checkedAt < this.intervalMs) {
          out.set(claim.metadata?.name ?? '', cached.reason);
          return;
        }
        try {
          const reason = await this.cloudProvider.isDrifted(claim);
          this.entries.set(key, { reason, checkedAt: now });
          out.set(claim.metadata?.name ?? '', reason);
        } catch (err) {
          // Unknown is not drifted: a failing cloud call must never replace nodes.
          this.logger.warn('checking drift', { nodeClaim: claim.metadata?.name, error: err });
          out.set(claim.metadata?.name ?? '', cached?.reason);
        }
      }),
    );
    const live = new Set(nodeClaims.map((c) => c.metadata?.uid ?? c.metadata?.name ?? ''));
    for (const key of this.entries.keys()) if (!live.has(key)) this.entries.delete(key);
    return out;
  }
}
