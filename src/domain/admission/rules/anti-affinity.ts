/**
 * OVH anti-affinity keeps apart (distinct hypervisors) only the nodes of one MKS node pool, which then holds
 * at most 5 nodes. karpenter-eu makes one MKS pool per (flavor, zone) and, once it is full, opens another
 * (`-p2`, `-p3`… up to 20): a NodePool on an anti-affinity class can reach 5 × 20 × flavors × zones nodes,
 * and past 5 nodes of a flavor and zone some of them may share a hypervisor. The OVH provider fills pools by
 * these same numbers.
 */
import { LabelTopologyZone } from '../../../apis/v1/labels.js';
import { normalizeLabelKey } from '../../requirements/well-known.js';
import { asRecord, field, nameOf, requirementsOf } from '../object-access.js';
import type { PoolScope } from '../pool-scope.js';
import { emptyFindings, type KubeObject, type RuleFindings } from '../types.js';

export const AntiAffinityPoolMaxNodes = 5;
/** MKS pools karpenter-eu opens per (flavor, zone, fixed settings) family before a launch fails. */
export const MksPoolsPerFamily = 20;

function zoneCount(pool: KubeObject, scope: PoolScope): number {
  const zones = scope.region?.zones ?? [];
  const requirement = requirementsOf(pool).find(({ spec }) => normalizeLabelKey(spec.key) === LabelTopologyZone && spec.operator === 'In');
  const allowed = requirement ? zones.filter((z) => requirement.spec.values?.includes(z)) : zones;
  return Math.max(1, allowed.length);
}

function nodesLimitOf(pool: KubeObject): { raw: unknown; nodes: number | undefined } {
  const raw = asRecord(field(pool, 'spec', 'limits'))?.nodes;
  const nodes = typeof raw === 'number' ? raw : typeof raw === 'string' && /^[0-9]+$/.test(raw) ? Number(raw) : undefined;
  return { raw, nodes };
}

export function checkAntiAffinity(pool: KubeObject, scope: PoolScope): RuleFindings {
  const findings = emptyFindings();
  if (field(scope.nodeClass, 'spec', 'antiAffinity') !== true || scope.allowed.length === 0) return findings;
  const flavors = scope.allowed.length;
  const zones = zoneCount(pool, scope);
  const reachable = AntiAffinityPoolMaxNodes * MksPoolsPerFamily * flavors * zones;
  const className = JSON.stringify(nameOf(scope.nodeClass));
  const { raw, nodes } = nodesLimitOf(pool);
  const pools = `${AntiAffinityPoolMaxNodes} × ${MksPoolsPerFamily} pools × ${flavors} flavor(s) × ${zones} zone(s)`;
  if (nodes !== undefined && nodes > reachable) {
    findings.violations.push({
      path: 'spec.limits[nodes]',
      message: `Invalid value: ${JSON.stringify(raw)}: OVHNodeClass ${className} uses anti-affinity, whose MKS pools hold at most ${AntiAffinityPoolMaxNodes} nodes, and at most ${MksPoolsPerFamily} pools are opened per flavor and zone: at most ${reachable} nodes (${pools}) can ever run; lower it to ${reachable} or allow more flavors or zones`,
    });
  } else if (nodes === undefined || nodes > AntiAffinityPoolMaxNodes) {
    findings.warnings.push(
      `NodePool ${JSON.stringify(nameOf(pool))}: anti-affinity (OVHNodeClass ${className}) keeps apart only the nodes of one MKS node pool, which holds at most ${AntiAffinityPoolMaxNodes} nodes: each flavor and zone gets its own MKS pool and, past ${AntiAffinityPoolMaxNodes} nodes, karpenter-eu opens another (-p2, -p3… up to ${MksPoolsPerFamily}) whose nodes may share hypervisors with the first's; up to ${reachable} nodes (${pools}). Set spec.limits.nodes to ${AntiAffinityPoolMaxNodes} to keep one MKS pool per flavor and zone`,
    );
  }
  return findings;
}
