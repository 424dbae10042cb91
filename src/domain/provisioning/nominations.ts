/**
 * Which of the provisioner's earlier nominations still hold. A pod planned onto a NodeClaim keeps that place
 * while it waits and the claim exists and is not being deleted: a later pass, whose view of the cluster may lag,
 * places it there again before anything else, so capacity launched for one pod is not taken by another and the
 * first pod planned again on a new claim. That holds past the Node's initialization too: kube-scheduler binds
 * the pod some time after the Node turns Ready (seconds under load), and a pass in between would otherwise give
 * the node to pods that can go elsewhere (those of a node being deleted keep running until evicted). Once the
 * pod is bound it no longer waits; once the claim is gone or deleting, its pods are planned afresh. Pure.
 */

/** Capacity the simulation sees, by the name it places pods on, with the NodeClaim behind it. */
export interface NominationTarget {
  /** `ExistingNode.name` in this pass (the Node's name once one registered, else the NodeClaim's). */
  name: string;
  nodeClaim: string;
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
 * is among `targets` and not being deleted.
 */
export function heldNominations(
  nominations: ReadonlyMap<string, string>,
  waiting: ReadonlySet<string>,
  targets: readonly NominationTarget[],
): HeldNominations {
  const staying = new Map(targets.filter((t) => !t.markedForDeletion).map((t) => [t.nodeClaim, t.name]));
  const forSolve: Record<string, string> = {};
  const kept = new Map<string, string>();
  for (const [pod, nodeClaim] of nominations) {
    const name = staying.get(nodeClaim);
    if (name === undefined || !waiting.has(pod)) continue;
    forSolve[pod] = name;
    kept.set(pod, nodeClaim);
  }
  return { forSolve, kept };
}

/** The NodeClaim behind each target (not being deleted) a pass assigned pods to: pod key → NodeClaim name. */
export function nominationsOf(
  assignments: readonly { node: string; pods: readonly string[] }[],
  targets: readonly NominationTarget[],
): Map<string, string> {
  const claimOf = new Map(targets.filter((t) => !t.markedForDeletion).map((t) => [t.name, t.nodeClaim]));
  const out = new Map<string, string>();
  for (const a of assignments) {
    const nodeClaim = claimOf.get(a.node);
    if (nodeClaim !== undefined) for (const pod of a.pods) out.set(pod, nodeClaim);
  }
  return out;
}
