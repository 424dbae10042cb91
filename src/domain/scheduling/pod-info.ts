/**
 * A pending pod compiled once for the scheduling loop: requests, node requirements, tolerations, host ports
 * and topology terms (spread, affinity, anti-affinity). Preferred terms are treated as required here; the
 * preference relaxation (preferences.ts) removes them from the pod spec and the pod is compiled again.
 */
import type { V1PodAffinityTerm, V1TopologySpreadConstraint } from '@kubernetes/client-node';
import type { ResourceList } from '../instancetypes/types.js';
import { type HostPort, podHostPorts, podKey, podSchedulingRequests } from '../pods/index.js';
import { CompiledLabelSelector, podRequirements, type Requirements, type Toleration } from '../requirements/index.js';
import type { DraContext, PodClaim } from '../dra/index.js';
import type { PodLike } from './types.js';

/** A pod's DRA claims, split by what placing it must do about them. */
export interface PodDra {
  context: DraContext;
  /** Not allocated yet: the node the pod lands on must allocate them (a shared one once for all its pods). */
  claims: readonly PodClaim[];
  /** Allocated on one node already: the pod can only land there. */
  pinned: readonly PodClaim[];
}

export type TopologyTermKind = 'spread' | 'affinity' | 'anti-affinity';

export interface TopologyTerm {
  kind: TopologyTermKind;
  key: string;
  /** Namespaces whose pods count; undefined = every namespace. */
  namespaces: ReadonlySet<string> | undefined;
  selector: CompiledLabelSelector;
  /** Groups pods counting the same set, whatever the term kind: `key|namespaces|selector`. */
  groupId: string;
  maxSkew: number;
  /** Spread only: count only the domains the pod's nodeSelector/affinity allows (`nodeAffinityPolicy`, default Honor). */
  honorNodeAffinity: boolean;
}

export interface PodInfo {
  /** `namespace/name`. */
  key: string;
  pod: PodLike;
  namespace: string;
  labels: Readonly<Record<string, string>>;
  requests: ResourceList;
  requirements: Requirements;
  /** Whether `requirements` constrains anything (most pods do not: a fast path). */
  hasRequirements: boolean;
  tolerations: readonly Toleration[];
  hostPorts: readonly HostPort[];
  terms: readonly TopologyTerm[];
  /** Pods with equal keys have the same constraints and labels (they differ only in requests). */
  classKey: string;
  /** Set when the pod has resource claims and was compiled with a DRA context. */
  dra?: PodDra;
}

export class PodCompileError extends Error {
  constructor(
    readonly pod: string,
    cause: unknown,
  ) {
    super(`compiling pod ${pod}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'PodCompileError';
  }
}

function groupId(key: string, namespaces: ReadonlySet<string> | undefined, selector: unknown): string {
  return `${key}|${namespaces ? [...namespaces].sort().join(',') : '*'}|${JSON.stringify(selector ?? null)}`;
}

function spreadTerm(c: V1TopologySpreadConstraint, namespace: string): TopologyTerm {
  const namespaces = new Set([namespace]);
  return {
    kind: 'spread',
    key: c.topologyKey,
    namespaces,
    selector: CompiledLabelSelector.compile(c.labelSelector),
    groupId: groupId(c.topologyKey, namespaces, c.labelSelector),
    maxSkew: c.maxSkew,
    honorNodeAffinity: c.nodeAffinityPolicy !== 'Ignore',
  };
}

function affinityTerm(kind: TopologyTermKind, t: V1PodAffinityTerm, namespace: string): TopologyTerm {
  // An empty namespaceSelector ({}) selects every namespace; other selectors are approximated by the list.
  const everyNamespace = t.namespaceSelector !== undefined && Object.keys(t.namespaceSelector).length === 0;
  const namespaces = everyNamespace ? undefined : new Set(t.namespaces?.length ? t.namespaces : [namespace]);
  return {
    kind,
    key: t.topologyKey,
    namespaces,
    selector: CompiledLabelSelector.compile(t.labelSelector),
    groupId: groupId(t.topologyKey, namespaces, t.labelSelector),
    maxSkew: 0,
    honorNodeAffinity: false,
  };
}

/** Required terms plus, until relaxed, the heaviest preferred term of each kind and ScheduleAnyway spreads. */
export function topologyTerms(pod: PodLike): TopologyTerm[] {
  const namespace = pod.metadata?.namespace ?? 'default';
  const spec = pod.spec;
  const terms: TopologyTerm[] = (spec?.topologySpreadConstraints ?? []).map((c) => spreadTerm(c, namespace));
  const affinity = spec?.affinity?.podAffinity;
  const anti = spec?.affinity?.podAntiAffinity;
  for (const t of affinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []) terms.push(affinityTerm('affinity', t, namespace));
  for (const t of anti?.requiredDuringSchedulingIgnoredDuringExecution ?? []) terms.push(affinityTerm('anti-affinity', t, namespace));
  const heaviest = <T extends { weight: number }>(list: T[] | undefined): T | undefined =>
    [...(list ?? [])].sort((a, b) => b.weight - a.weight)[0];
  const preferredAffinity = heaviest(affinity?.preferredDuringSchedulingIgnoredDuringExecution);
  if (preferredAffinity) terms.push(affinityTerm('affinity', preferredAffinity.podAffinityTerm, namespace));
  const preferredAnti = heaviest(anti?.preferredDuringSchedulingIgnoredDuringExecution);
  if (preferredAnti) terms.push(affinityTerm('anti-affinity', preferredAnti.podAffinityTerm, namespace));
  return terms;
}

/** Compiles a pod; malformed quantities, selectors or requirements become a PodCompileError naming the pod. */
export function compilePod(pod: PodLike, dra?: DraContext): PodInfo {
  const key = podKey(pod);
  try {
    const requirements = podRequirements(pod);
    const claims = dra?.podClaims(pod);
    return {
      ...(dra && claims ? { dra: podDra(dra, claims) } : {}),
      key,
      pod,
      namespace: pod.metadata?.namespace ?? 'default',
      labels: pod.metadata?.labels ?? {},
      requests: podSchedulingRequests(pod),
      requirements,
      hasRequirements: requirements.keys().length > 0,
      tolerations: pod.spec?.tolerations ?? [],
      hostPorts: podHostPorts(pod),
      terms: topologyTerms(pod),
      classKey: classKeyOf(pod),
    };
  } catch (error) {
    throw new PodCompileError(key, error);
  }
}

function podDra(context: DraContext, claims: readonly PodClaim[]): PodDra {
  // A claim allocated to devices reachable from every node needs nothing of the node.
  return { context, claims: claims.filter((c) => !c.allocated), pinned: claims.filter((c) => c.allocated?.node !== undefined) };
}

/** Karpenter's queue order: CPU descending, then memory descending, then name (stable, deterministic). */
export function byCpuAndMemoryDescending(a: PodInfo, b: PodInfo): number {
  const cpu = (b.requests.cpu ?? 0) - (a.requests.cpu ?? 0);
  if (cpu !== 0) return cpu;
  const memory = (b.requests.memory ?? 0) - (a.requests.memory ?? 0);
  if (memory !== 0) return memory;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** Memory descending, then CPU: packs memory-bound batches better (tried alongside the queue order on small batches). */
export function byMemoryAndCpuDescending(a: PodInfo, b: PodInfo): number {
  const memory = (b.requests.memory ?? 0) - (a.requests.memory ?? 0);
  if (memory !== 0) return memory;
  return byCpuAndMemoryDescending(a, b);
}

function classKeyOf(pod: PodLike): string {
  const spec = pod.spec;
  const ports = (spec?.containers ?? []).flatMap((c) =>
    (c.ports ?? []).filter((p) => p.hostPort).map((p) => `${p.hostIP}:${p.hostPort}/${p.protocol}`),
  );
  return JSON.stringify([
    pod.metadata?.namespace,
    pod.metadata?.labels,
    spec?.nodeSelector,
    spec?.affinity,
    spec?.tolerations,
    spec?.topologySpreadConstraints,
    ports,
  ]);
}
