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
  if (nodes !== undefined && nodes > reachable) {
    findings.violations.push({
      path: 'spec.limits[nodes]',
      message: `Invalid value: ${JSON.stringify(raw)}: OVHNodeClass ${className} uses anti-affinity, whose MKS pools hold at most ${AntiAffinityPoolMaxNodes} nodes, and at most ${MksPoolsPerFamily} pools are opened per flavor and zone: at most ${reachable} nodes can ever run (${AntiAffinityPoolMaxNodes} × ${MksPoolsPerFamily} pools × ${flavors} flavor(s) × ${zones} zone(s)); lower it to ${reachable} or allow more flavors or zones`,
    });
  } else if (nodes === undefined || nodes > AntiAffinityPoolMaxNodes) {
    // Short: kube-apiserver truncates an admission warning past 256 characters.
    findings.warnings.push(
      `NodePool ${JSON.stringify(nameOf(pool))}: anti-affinity keeps apart only the nodes of one MKS pool (at most ${AntiAffinityPoolMaxNodes}); past that karpenter-eu opens another pool (-p2…) whose nodes may share hypervisors; set spec.limits.nodes to ${AntiAffinityPoolMaxNodes} to keep one pool per flavor and zone`,
    );
  }
  return findings;
}
