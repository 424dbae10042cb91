/**
 * OVH anti-affinity node pools hold at most 5 nodes, and karpenter-eu makes one MKS pool per (flavor, zone):
 * a NodePool on an anti-affinity class can reach at most 5 × flavors × zones nodes.
 */
import { LabelTopologyZone } from '../../../apis/v1/labels.js';
import { normalizeLabelKey } from '../../requirements/well-known.js';
import { asRecord, field, nameOf, requirementsOf } from '../object-access.js';
import type { PoolScope } from '../pool-scope.js';
import { emptyFindings, type KubeObject, type RuleFindings } from '../types.js';

export const AntiAffinityPoolMaxNodes = 5;

function zoneCount(pool: KubeObject, scope: PoolScope): number {
  const zones = scope.region?.zones ?? [];
  const requirement = requirementsOf(pool).find(({ spec }) => normalizeLabelKey(spec.key) === LabelTopologyZone && spec.operator === 'In');
  const allowed = requirement ? zones.filter((z) => requirement.spec.values?.includes(z)) : zones;
  return Math.max(1, allowed.length);
}

export function checkAntiAffinity(pool: KubeObject, scope: PoolScope): RuleFindings {
  const findings = emptyFindings();
  if (field(scope.nodeClass, 'spec', 'antiAffinity') !== true || scope.allowed.length === 0) return findings;
  const reachable = AntiAffinityPoolMaxNodes * scope.allowed.length * zoneCount(pool, scope);
  const className = JSON.stringify(nameOf(scope.nodeClass));
  const nodesLimit = asRecord(field(pool, 'spec', 'limits'))?.nodes;
  const nodes =
    typeof nodesLimit === 'number'
      ? nodesLimit
      : typeof nodesLimit === 'string' && /^[0-9]+$/.test(nodesLimit)
        ? Number(nodesLimit)
        : undefined;
  if (nodes !== undefined && nodes > reachable) {
    findings.violations.push({
      path: 'spec.limits[nodes]',
      message: `Invalid value: ${JSON.stringify(nodesLimit)}: OVHNodeClass ${className} uses anti-affinity, whose MKS pools hold at most ${AntiAffinityPoolMaxNodes} nodes; with ${scope.allowed.length} flavor(s) and these zones at most ${reachable} nodes can ever run; lower it to ${reachable} or allow more flavors or zones`,
    });
  } else if (nodes === undefined) {
    findings.warnings.push(
      `NodePool ${JSON.stringify(nameOf(pool))}: anti-affinity caps it at ${reachable} nodes (${AntiAffinityPoolMaxNodes} per flavor and zone); set spec.limits.nodes to make that explicit`,
    );
  }
  return findings;
}
