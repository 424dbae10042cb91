/**
 * The NodePool template hash (`karpenter.sh/nodepool-hash`): provisioning stamps it on NodeClaims, drift compares
 * it with the NodePool's current one. Like upstream it covers the template except requirements (those drift
 * through RequirementsDrifted instead), expireAfter and terminationGracePeriod (they apply to new NodeClaims
 * without replacing existing nodes), and ignores key order. FNV-1a 64-bit over canonical JSON, because the
 * domain has no crypto module; collisions only matter as a missed drift.
 */
import type { NodeClaim, NodePool } from '../../apis/index.js';
import { AnnotationNodePoolHash, AnnotationNodePoolHashVersion, NodePoolHashVersion } from '../../apis/index.js';

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  const prime = 0x100000001b3n;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * prime) & 0xffffffffffffffffn;
  }
  return hash.toString(10);
}

export function nodePoolHash(nodePool: NodePool): string {
  const template = nodePool.spec.template;
  const { requirements: _requirements, expireAfter: _expireAfter, terminationGracePeriod: _grace, ...spec } = template.spec;
  return fnv1a64(
    canonical({ metadata: { labels: template.metadata?.labels ?? {}, annotations: template.metadata?.annotations ?? {} }, spec }),
  );
}

/** The annotations the NodePool itself carries (upstream's hash controller writes both on it). */
export function nodePoolHashAnnotations(nodePool: NodePool): Record<string, string> {
  return { [AnnotationNodePoolHash]: nodePoolHash(nodePool), [AnnotationNodePoolHashVersion]: NodePoolHashVersion };
}

/**
 * The annotations to patch onto a NodeClaim stamped with another hash version, or undefined when it is current.
 * Its old hash cannot be compared with the new one, so it takes the NodePool's current hash — unless it is
 * already Drifted: that one keeps its old hash and so stays drifted (upstream's nodepool hash controller).
 */
export function restampedHashAnnotations(nodePool: NodePool, nodeClaim: NodeClaim): Record<string, string> | undefined {
  const annotations = nodeClaim.metadata?.annotations ?? {};
  if (annotations[AnnotationNodePoolHashVersion] === NodePoolHashVersion) return undefined;
  const drifted = (nodeClaim.status?.conditions ?? []).some((c) => c.type === 'Drifted' && c.status === 'True');
  return {
    [AnnotationNodePoolHashVersion]: NodePoolHashVersion,
    ...(drifted ? {} : { [AnnotationNodePoolHash]: nodePoolHash(nodePool) }),
  };
}
