/**
 * Drift (upstream nodeclaim/disruption/drift.go + the Drift method): a NodeClaim whose NodePool template hash
 * changed, whose labels no longer meet the NodePool's requirements, or whose cloud provider reports a NodeClass
 * drift, is replaced — one candidate per command, empty ones first, within the `Drifted` budget.
 */
import type { NodePool } from '../../apis/index.js';
import { AnnotationNodePoolHash, AnnotationNodePoolHashVersion, NodePoolHashVersion } from '../../apis/index.js';
import { Requirements } from '../requirements/index.js';
import { budgetMapping, withinBudget } from './budget-mapping.js';
import { findCandidates, isEmpty } from './candidates.js';
import { buildCommand, priceOf } from './command.js';
import { nodePoolHash } from './nodepool-hash.js';
import { simulateWithout } from './simulate.js';
import type { Candidate, DisruptionCommand, DisruptionInput, DisruptionNode } from './types.js';

export const DriftReasons = { nodePool: 'NodePoolDrifted', requirements: 'RequirementsDrifted' } as const;

/** Why the node drifted, or undefined. */
export function driftReason(node: DisruptionNode, nodePool: NodePool): string | undefined {
  const annotations = node.nodeClaim?.metadata?.annotations ?? {};
  const claimHash = annotations[AnnotationNodePoolHash];
  const sameVersion = (annotations[AnnotationNodePoolHashVersion] ?? NodePoolHashVersion) === NodePoolHashVersion;
  if (claimHash !== undefined && sameVersion && claimHash !== nodePoolHash(nodePool)) return DriftReasons.nodePool;
  const labels = node.nodeClaim?.metadata?.labels ?? node.node?.metadata?.labels ?? {};
  // Upstream StrictlyCompatible: every NodePool requirement must be met by the NodeClaim's labels.
  if (!Requirements.fromLabels(labels).isCompatible(Requirements.fromSpecs(nodePool.spec.template.spec.requirements)))
    return DriftReasons.requirements;
  return node.cloudDriftReason;
}

/** The candidates the Drift method may take, empty ones first, each with why it drifted. */
export function driftedCandidates(input: DisruptionInput): { c: Candidate; why: string }[] {
  const pools = new Map(input.nodePools.map((p) => [p.metadata?.name ?? '', p]));
  return findCandidates(input)
    .candidates.map((c) => ({ c, why: driftReason(c.node, pools.get(c.nodePool) as NodePool) }))
    .filter((d): d is { c: Candidate; why: string } => d.why !== undefined)
    .sort((a, b) => Number(isEmpty(b.c)) - Number(isEmpty(a.c)) || a.c.name.localeCompare(b.c.name));
}

export function computeDrift(input: DisruptionInput): DisruptionCommand | undefined {
  const drifted = driftedCandidates(input);
  const budget = budgetMapping(input, 'Drifted');
  for (const { c, why } of withinBudget(
    drifted.map((d) => ({ ...d, nodePool: d.c.nodePool })),
    budget.allowed,
  )) {
    const sim = isEmpty(c) ? undefined : simulateWithout([c], input);
    if (sim && !sim.allScheduled) continue;
    const replacements = sim?.result.newNodeClaims ?? [];
    return buildCommand({
      reason: 'Drifted',
      consolidationType: '',
      candidates: [c],
      replacements,
      message: `drifted (${why}): ${replacements.length === 0 ? 'deleting' : `replacing with ${replacements.map((r) => r.instanceType).join(', ')}`} at ${priceOf(replacements).toFixed(4)} EUR/h`,
      driftReason: why,
    });
  }
  return undefined;
}
