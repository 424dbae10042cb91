/** Builds the DisruptionCommand record every method returns. */
import type { DisruptionReason } from '../../apis/index.js';
import type { PlannedNodeClaim } from '../scheduling/types.js';
import type { Candidate, ConsolidationType, DisruptionCommand } from './types.js';

export function priceOf(items: readonly { pricePerHour: number }[]): number {
  return items.reduce((sum, i) => sum + i.pricePerHour, 0);
}

export interface CommandParts {
  reason: DisruptionReason;
  consolidationType: ConsolidationType;
  candidates: readonly Candidate[];
  replacements: PlannedNodeClaim[];
  message: string;
  driftReason?: string;
}

export function buildCommand(parts: CommandParts): DisruptionCommand {
  return {
    reason: parts.reason,
    decision: parts.replacements.length === 0 ? 'delete' : 'replace',
    consolidationType: parts.consolidationType,
    candidates: parts.candidates.map((c) => c.nodeClaimName),
    candidateNodes: parts.candidates.map((c) => c.name),
    nodePools: [...new Set(parts.candidates.map((c) => c.nodePool))].sort(),
    replacements: parts.replacements,
    pricePerHourBefore: priceOf(parts.candidates),
    pricePerHourAfter: priceOf(parts.replacements),
    message: parts.message,
    ...(parts.driftReason === undefined ? {} : { driftReason: parts.driftReason }),
  };
}
