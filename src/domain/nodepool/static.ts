/**
 * Static NodePools (upstream's `spec.replicas`: a fixed node count kept regardless of pods) are not implemented:
 * the CRD keeps the field for compatibility with upstream's schema, admission refuses it, and a NodePool that
 * carries it anyway (stored before the webhook ran) is reported not Ready with the same sentence.
 */
export function staticNodePoolRefusal(replicas: unknown): string {
  return (
    `Unsupported value: ${JSON.stringify(replicas)}: static NodePools are not supported yet (no node would be launched for it); ` +
    'remove spec.replicas so the NodePool launches nodes for pending pods (spec.limits.nodes caps how many), ' +
    'or keep a fixed-size group of nodes in a node pool managed by the cloud'
  );
}
