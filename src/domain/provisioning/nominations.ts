/**
 * Which of the provisioner's earlier nominations still hold. A pod planned onto a NodeClaim keeps that place
 * while the claim is in flight (exists, not initialized, not being deleted): a later pass, whose view of the
 * cluster may lag, places it there again before anything else, so capacity launched for one pod is not taken
 * by another and the first pod planned again on a new claim. Once the claim is initialized kube-scheduler
 * binds what fits; once it is gone or deleting, its pods are planned afresh. Pure.
 */

/** Capacity the simulation sees, by the name it places pods on, with the NodeClaim behind it. */
export interface NominationTarget {
  /** `ExistingNode.name` in this pass (the Node's name once one registered, else the NodeClaim's). */
  name: string;
  nodeClaim: string;
  initialized: boolean;
  markedForDeletion: boolean;
}

export interface HeldNominations {
  /** Pod key → existing node name, for `SchedulingInput.nominations`. */
  forSolve: Record<string, string>;
  /** Pod key → NodeClaim name: the nominations still held (the rest are dropped). */
  kept: Map<string, string>;
}

/**
 * `nominations` (pod key → NodeClaim name) narrowed to pods still waiting (`waiting`, pod keys) whose NodeClaim
 * is still in flight among `targets`.
 */
export function heldNominations(
  nominations: ReadonlyMap<string, string>,
  waiting: ReadonlySet<string>,
  targets: readonly NominationTarget[],
): HeldNominations {
  const inFlight = new Map(targets.filter((t) => !t.initialized && !t.markedForDeletion).map((t) => [t.nodeClaim, t.name]));
  const forSolve: Record<string, string> = {};
  const kept = new Map<string, string>();
  for (const [pod, nodeClaim] of nominations) {
    const name = inFlight.get(nodeClaim);
    if (name === undefined || !waiting.has(pod)) continue;
    forSolve[pod] = name;
    kept.set(pod, nodeClaim);
  }
  return { forSolve, kept };
}

/** The NodeClaim behind each in-flight target a pass assigned pods to: pod key → NodeClaim name. */
export function nominationsOf(
  assignments: readonly { node: string; pods: readonly string[] }[],
  targets: readonly NominationTarget[],
): Map<string, string> {
  const claimOf = new Map(targets.filter((t) => !t.initialized && !t.markedForDeletion).map((t) => [t.name, t.nodeClaim]));
  const out = new Map<string, string>();
  for (const a of assignments) {
    const nodeClaim = claimOf.get(a.node);
    if (nodeClaim !== undefined) for (const pod of a.pods) out.set(pod, nodeClaim);
  }
  return out;
}
