/**
 * Which nodes disruption is likely to take soon, for the scheduler extender to steer new pods away from:
 * `drifted` (the Drift method would replace it: template hash, requirements or the cloud says so) and
 * `consolidation-candidate` (upstream's Consolidatable condition: consolidateAfter has elapsed and the
 * NodePool's policy lets consolidation take it — any such node under WhenEmptyOrUnderutilized, only empty
 * ones under WhenEmpty). Nodes that cannot be disrupted at all (do-not-disrupt, blocking PDBs, unmanaged,
 * nominated) are not listed: a pod placed there stays.
 */
import type { NodePool } from '../../apis/index.js';
import { allowsUnderutilizedConsolidation, findCandidates, isConsolidatable, isEmpty } from './candidates.js';
import { driftReason } from './drift.js';
import type { DisruptionInput } from './types.js';

export type DisruptionOutlook = 'drifted' | 'consolidation-candidate';

/** Node name -> outlook, for the nodes disruption may take; absent nodes stay where they are. */
export function disruptionOutlook(input: DisruptionInput): Map<string, DisruptionOutlook> {
  const pools = new Map(input.nodePools.map((p) => [p.metadata?.name ?? '', p]));
  const out = new Map<string, DisruptionOutlook>();
  for (const candidate of findCandidates(input).candidates) {
    const pool = pools.get(candidate.nodePool) as NodePool;
    if (driftReason(candidate.node, pool) !== undefined) {
      out.set(candidate.name, 'drifted');
      continue;
    }
    if ((allowsUnderutilizedConsolidation(pool) || isEmpty(candidate)) && isConsolidatable(candidate, pool, input.now))
      out.set(candidate.name, 'consolidation-candidate');
  }
  return out;
}
