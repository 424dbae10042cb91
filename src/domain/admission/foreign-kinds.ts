/**
 * Objects of the Karpenter APIs users migrate from: upstream's `karpenter.sh/v1alpha5` Provisioner (and
 * v1beta1 NodePool), AWS's node templates, the existing OVHcloud provider's OVHNodeClass group. No API server
 * here serves them, so `kubectl apply` would fail or, worse, a file would "pass" offline while doing nothing:
 * each is a violation naming what to run instead.
 */
import { field, groupOf, kindOf } from './object-access.js';
import type { Violation } from './types.js';

const convertHint = 'run `karpenter-eu convert -f FILE` to turn it into karpenter.sh/v1 NodePool and NodeClass YAML';

/** Why this project will not take the object as written, or undefined when it is not a migrating kind. */
export function foreignKarpenterKind(object: unknown): Violation | undefined {
  const apiVersion = String(field(object, 'apiVersion') ?? '');
  const kind = kindOf(object);
  if (apiVersion === 'karpenter.sh/v1alpha5' || apiVersion === 'karpenter.sh/v1beta1') {
    return {
      path: 'apiVersion',
      message: `Unsupported value: ${JSON.stringify(`${apiVersion} ${kind}`)}: karpenter-eu serves karpenter.sh/v1 (NodePool, NodeClaim) only; ${convertHint}`,
    };
  }
  if (groupOf(object) === 'karpenter.k8s.aws') {
    return {
      path: 'apiVersion',
      message: `Unsupported value: ${JSON.stringify(`${apiVersion} ${kind}`)}: an AWS node template has no meaning on OVHcloud, Scaleway or Outscale; ${convertHint} (the fields that map are carried over)`,
    };
  }
  return undefined;
}
