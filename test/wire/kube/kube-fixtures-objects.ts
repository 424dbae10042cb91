/** NodePool / NodeClaim objects accepted by our CRD schemas, for the wire tests. */
import type { NodeClaim, NodePool } from '../../../src/apis/index.js';
import * as builders from '../../builders.js';

export const nodeClassRef = { group: 'karpenter.scaleway.sh', kind: 'ScalewayNodeClass', name: 'default' };

export function nodePool(name: string, limits?: Record<string, string>): NodePool {
  return builders.nodePool({
    name,
    nodeClassRef,
    requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] }],
    ...(limits ? { limits } : {}),
  });
}

export function nodeClaim(name: string, pool: string, providerID?: string): NodeClaim {
  const requirements = [{ key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: ['PRO2-XS'] }];
  return builders.nodeClaim({ name, nodePool: pool, nodeClassRef, requirements, ...(providerID ? { providerID } : {}) });
}
