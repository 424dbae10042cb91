/**
 * Expiration (upstream nodeclaim/expiration): a NodeClaim older than its NodePool's `expireAfter` is deleted,
 * forcefully and outside budgets; provisioning launches a replacement for its pods.
 */
import { LabelNodePool, type NodeClaim } from '../../apis/index.js';
import { parseNillableDurationMs } from './duration.js';

export interface Expiration {
  nodeClaim: string;
  nodePool?: string;
  expiredAt: number;
}

/**
 * The NodeClaim's `spec.expireAfter` (copied from the NodePool template at launch) wins, as upstream; the
 * NodePool's current value applies to claims launched without one.
 */
export function expiredNodeClaims(
  nodeClaims: readonly { nodeClaim: NodeClaim; nodePoolExpireAfter?: string }[],
  now: number,
): Expiration[] {
  const out: Expiration[] = [];
  for (const { nodeClaim, nodePoolExpireAfter } of nodeClaims) {
    if (nodeClaim.metadata?.deletionTimestamp !== undefined) continue;
    const created = Date.parse(String(nodeClaim.metadata?.creationTimestamp ?? ''));
    if (Number.isNaN(created)) continue;
    let after: number | undefined;
    try {
      after = parseNillableDurationMs('expireAfter', nodeClaim.spec?.expireAfter ?? nodePoolExpireAfter ?? 'Never');
    } catch {
      continue;
    }
    if (after !== undefined && now >= created + after) {
      out.push({
        nodeClaim: nodeClaim.metadata?.name ?? '',
        nodePool: nodeClaim.metadata?.labels?.[LabelNodePool],
        expiredAt: created + after,
      });
    }
  }
  return out.sort((a, b) => a.expiredAt - b.expiredAt || a.nodeClaim.localeCompare(b.nodeClaim));
}
