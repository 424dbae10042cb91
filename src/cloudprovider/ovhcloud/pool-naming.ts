/**
 * How NodeClaims map to MKS node pools (pure). MKS has no "create a VM" call: capacity comes from node
 * pools. NodeClaims share pools named `karpenter-{flavor}-{zone}`, one per (flavor, zone), with `-monthly`
 * / `-aa` added for the settings MKS fixes at creation (monthlyBilled, antiAffinity). A pool's template
 * (NodePool, labels, taints) applies to all its nodes, so it is fingerprinted as the pool's *variant*
 * (label `karpenter-eu.io/pool-variant`): the first variant takes the plain name, another one uses
 * `…-{variant}`. An anti-affinity pool holds at most 5 nodes (MKS limit): when full, the next pool of the
 * same stem is `…-p2`, `…-p3`. All pools sharing a base name share one lock. A pool belongs to the cluster
 * its template labels name (`karpenter-eu.io/cluster`); the cluster name is part of the variant, so a pool of
 * another cluster in the same MKS cluster pushes ours to `…-{variant}` instead of being shared.
 *
 * Which node belongs to which NodeClaim is recorded on the pool itself, as template annotations
 * `claims.karpenter-eu.io/<nodeclaim>`: `pending:<epoch ms>` from the scale-up until the node is known, then
 * `node:<nodeId>`. The record survives a restart of the service mid-create, and a retried create finds it.
 */
import { createHash } from 'node:crypto';
import type { OvhPoolTemplate, OvhTaint } from './api.js';

export const PoolNamePrefix = 'karpenter-';
/** Label on every node of our pools, and the mark of a pool this service manages. */
export const LabelManagedBy = 'karpenter-eu.io/managed-by';
export const ManagedByValue = 'karpenter-eu';
/**
 * The Kubernetes cluster whose service owns the pool: two installations pointed at one MKS cluster (or a
 * NodeClass naming another cluster's kubeId) must never list, scale or delete each other's pools.
 */
export const LabelCluster = 'karpenter-eu.io/cluster';
/** The fingerprint of the pool's fixed settings and template. */
export const LabelPoolVariant = 'karpenter-eu.io/pool-variant';
export const ClaimAnnotationPrefix = 'claims.karpenter-eu.io/';
const MaxPoolNameLength = 63;
/** Room kept after the base name: `-{variant}` (7) and `-p99` (4). */
const SuffixRoom = 11;

/** Everything a pool fixes for its nodes. */
export interface PoolSettings {
  flavor: string;
  zone: string;
  monthlyBilled: boolean;
  antiAffinity: boolean;
  /** Template labels (NodePool, well-known, NodeClass tags). */
  labels: Readonly<Record<string, string>>;
  /** The owning cluster's name: part of the variant, so another cluster's pool never shares our pool names. */
  clusterName: string;
  taints: readonly OvhTaint[];
}

/** A 6-hex fingerprint of the settings and template. */
export function poolVariant(settings: PoolSettings): string {
  const labels = Object.entries(settings.labels).sort(([a], [b]) => a.localeCompare(b));
  const taints = [...settings.taints].map((t) => `${t.key}=${t.value}:${t.effect}`).sort();
  const fingerprint = JSON.stringify({ m: settings.monthlyBilled, a: settings.antiAffinity, labels, taints, c: settings.clusterName });
  return createHash('sha256').update(fingerprint).digest('hex').slice(0, 6);
}

/** `karpenter-b3-8-eu-west-par-a`, `karpenter-b2-7-gra7-a-monthly-aa`: lower-case, `_`/`.` made `-`. */
export function poolBaseName(settings: PoolSettings): string {
  const fixed = `${settings.monthlyBilled ? '-monthly' : ''}${settings.antiAffinity ? '-aa' : ''}`;
  const slug = `${settings.flavor}-${settings.zone}`.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
  const room = MaxPoolNameLength - PoolNamePrefix.length - fixed.length - SuffixRoom;
  return `${PoolNamePrefix}${slug.slice(0, room).replace(/-+$/, '')}${fixed}`;
}

/** The stem a variant's pools use: the base name when free or already this variant's, else `base-{variant}`. */
export function poolStem(base: string, variant: string, basePoolVariant: string | undefined): string {
  return basePoolVariant === undefined || basePoolVariant === variant ? base : `${base}-${variant}`;
}

/** The pool names of a stem in the order they are filled: the stem, then `-p2`, `-p3`… */
export function poolNameAt(stem: string, index: number): string {
  return index === 0 ? stem : `${stem}-p${index + 1}`;
}

/** The base name of a pool (without `-pN` and `-{variant}`): the key its scale decisions are locked by. */
export function familyOfPoolName(name: string): string {
  return name.replace(/-p\d+$/, '').replace(/-[0-9a-f]{6}$/, '');
}

/** A pool this service created for this cluster (name prefix, managed-by and cluster labels). */
export function isManagedPool(pool: { name: string; template?: OvhPoolTemplate }, clusterName: string): boolean {
  const labels = pool.template?.metadata.labels;
  return pool.name.startsWith(PoolNamePrefix) && labels?.[LabelManagedBy] === ManagedByValue && labels[LabelCluster] === clusterName;
}

/** The full template MKS wants (all five inner fields), carrying the claim records. */
export function poolTemplate(settings: PoolSettings, annotations: Readonly<Record<string, string>>): OvhPoolTemplate {
  return {
    metadata: {
      labels: {
        ...settings.labels,
        [LabelManagedBy]: ManagedByValue,
        [LabelCluster]: settings.clusterName,
        [LabelPoolVariant]: poolVariant(settings),
      },
      annotations: { ...annotations },
      finalizers: [],
    },
    spec: { taints: settings.taints.map((t) => ({ ...t })), unschedulable: false },
  };
}

/** The annotation key recording a NodeClaim (long names are hashed: an annotation name part is ≤ 63). */
export function claimAnnotationKey(nodeClaimName: string): string {
  const part = nodeClaimName.length <= 63 ? nodeClaimName : `h-${createHash('sha256').update(nodeClaimName).digest('hex').slice(0, 40)}`;
  return `${ClaimAnnotationPrefix}${part}`;
}

export type ClaimRecord = { kind: 'pending'; since: number } | { kind: 'node'; nodeId: string };

export function formatClaimRecord(record: ClaimRecord): string {
  return record.kind === 'pending' ? `pending:${record.since}` : `node:${record.nodeId}`;
}

export function parseClaimRecord(value: string): ClaimRecord | undefined {
  const [kind, rest] = [value.slice(0, value.indexOf(':')), value.slice(value.indexOf(':') + 1)];
  if (kind === 'pending' && /^\d+$/.test(rest)) return { kind: 'pending', since: Number(rest) };
  if (kind === 'node' && rest.length > 0) return { kind: 'node', nodeId: rest };
  return undefined;
}

/** The claim records of a pool, keyed by annotation key. */
export function claimRecordsOf(template: OvhPoolTemplate | undefined): Map<string, ClaimRecord> {
  const records = new Map<string, ClaimRecord>();
  for (const [key, value] of Object.entries(template?.metadata.annotations ?? {})) {
    if (!key.startsWith(ClaimAnnotationPrefix)) continue;
    const record = parseClaimRecord(value);
    if (record) records.set(key, record);
  }
  return records;
}
