/**
 * When a NodeClass gets or loses the in-use finalizer (pure). A NodeClass names the account its NodeClaims'
 * instances live in; deleted while they exist, it would leave them unlisted and undeletable after a restart
 * (garbage collection and termination find instances through the accounts NodeClasses name). So every live
 * NodeClass carries the finalizer, and a deleted one keeps it until no NodeClaim references it.
 */

export interface NodeClassFinalizerView {
  kind: string;
  name: string;
  finalizers: readonly string[];
  deleting: boolean;
}

export interface NodeClassReferenceView {
  kind: string;
  name: string;
}

export interface NodeClassFinalizerAction {
  action: 'add' | 'remove';
  kind: string;
  name: string;
}

function keyOf(ref: NodeClassReferenceView): string {
  return `${ref.kind}/${ref.name}`;
}

export function decideNodeClassFinalizers(
  nodeClasses: readonly NodeClassFinalizerView[],
  references: readonly NodeClassReferenceView[],
  finalizer: string,
): NodeClassFinalizerAction[] {
  const referenced = new Set(references.map(keyOf));
  const actions: NodeClassFinalizerAction[] = [];
  for (const nodeClass of nodeClasses) {
    const held = nodeClass.finalizers.includes(finalizer);
    if (!nodeClass.deleting && !held) actions.push({ action: 'add', kind: nodeClass.kind, name: nodeClass.name });
    if (nodeClass.deleting && held && !referenced.has(keyOf(nodeClass)))
      actions.push({ action: 'remove', kind: nodeClass.kind, name: nodeClass.name });
  }
  return actions;
}
