/** NodePool / NodeClaim objects accepted by our CRD schemas, for the wire tests. */
import type { NodeClaim, NodePool } from '../../../src/apis/index.js';

export const nodeClassRef = { group: 'karpenter.scaleway.sh', kind: 'ScalewayNodeClass', name: 'default' };

export function nodePool(name: string, limits?: Record<string, string>): NodePool {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name },
    spec: {
      template: { spec: { nodeClassRef, requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] }] } },
      ...(limits ? { limits } : {}),
    },
  } as NodePool;
}

export function nodeClaim(name: string, pool: string, providerID?: string): NodeClaim {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: { name, labels: { 'karpenter.sh/nodepool': pool } },
    spec: { nodeClassRef, requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['PRO2-XS'] }] },
    ...(providerID ? { status: { providerID } } : {}),
  } as NodeClaim;
}
