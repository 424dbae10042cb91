/** The solve's state as the plan callers and `plan --output json` read (DESIGN.md §3). */
import { CapacityTypeOnDemand, LabelCapacityType, LabelInstanceType, LabelTopologyZone } from '../../apis/v1/labels.js';
import { addResources } from '../quantity/index.js';
import { Requirement } from '../requirements/index.js';
import type { ClaimSlot } from './claim-slot.js';
import type { SchedulingState } from './state.js';
import type { PlannedNodeClaim, SchedulingResult } from './types.js';

/**
 * Upstream's MaxInstanceTypes (v1.0–v1.6): a NodeClaim lists at most the 60 cheapest types that fit. The cloud
 * launches the cheapest available of them anyway, and 400 options × thousands of claims is mostly garbage.
 */
export const MaxInstanceTypeOptions = 60;

export function plannedNodeClaim(claim: ClaimSlot): PlannedNodeClaim {
  const chosen = claim.cheapest;
  // candidates are cheapest first, so the chosen type is always kept.
  const options = claim.candidates
    .slice(0, MaxInstanceTypeOptions)
    .map((c) => ({ name: c.type.name, pricePerHour: c.priceByZone.get(claim.zone) as number }));
  const requirements = claim.requirements.copy().add(
    Requirement.create(
      LabelInstanceType,
      'In',
      options.map((o) => o.name),
    ),
    Requirement.create(LabelTopologyZone, 'In', [claim.zone]),
    Requirement.create(LabelCapacityType, 'In', [CapacityTypeOnDemand]),
  );
  return {
    hostname: claim.hostname,
    nodePool: claim.pool.pool.name,
    nodeClassRef: claim.pool.pool.nodeClassRef,
    instanceTypeOptions: options,
    instanceType: chosen.type.name,
    zone: claim.zone,
    capacityType: CapacityTypeOnDemand,
    pricePerHour: claim.price,
    allocatable: chosen.type.allocatable,
    requirements: requirements.toSpecs(),
    requests: addResources(claim.requests, chosen.overhead),
    pods: claim.pods.map((p) => p.key),
  };
}

export function buildResult(state: SchedulingState, errors: ReadonlyMap<string, string>): SchedulingResult {
  const newNodeClaims = state.claims.map(plannedNodeClaim);
  const existingNodeAssignments = state.existing
    .filter((s) => s.placed.length > 0)
    .map((s) => ({ node: s.node.name, pods: s.placed.map((p) => p.key) }));
  const unschedulable = [...errors].map(([pod, reason]) => ({ pod, reason }));
  const total = newNodeClaims.reduce((sum, c) => sum + c.pricePerHour, 0);
  return { newNodeClaims, existingNodeAssignments, unschedulable, totalPricePerHour: Math.round(total * 1e6) / 1e6 };
}
