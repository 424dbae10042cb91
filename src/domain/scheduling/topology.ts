/**
 * Topology bookkeeping (Karpenter topology.go / topologygroup.go): for each group of pods a term counts
 * (`key|namespaces|selector`) the number of matching pods per domain, existing pods included; for each
 * anti-affinity term the domains its owners occupy (the inverse check: an incoming pod must not land next
 * to a pod whose anti-affinity selects it).
 */
import { LabelHostname } from '../../apis/v1/labels.js';
import type { CompiledLabelSelector } from '../requirements/index.js';
import type { PodInfo, TopologyTerm } from './pod-info.js';

/** The domain a slot has for a topology key, undefined when it has no such label. */
export type DomainOf = (key: string) => string | undefined;

/**
 * Whether a pod could land in a domain through one source of it (an existing node, a NodePool's zone). Spread
 * constraints count only the domains the pod itself may use (kube-scheduler's `nodeAffinityPolicy: Honor`,
 * the default): a Scaleway zone must not hold an OVH-only deployment's minimum at 0.
 */
export type DomainEligibility = (pod: PodInfo) => boolean;
const Always = 'always' as const;

/**
 * Why a pod may not land somewhere. `monotone`: while pods are only added, the slot keeps refusing pods of
 * the same shape (anti-affinity, hostname spread, requirements, taints), so the scheduler can skip it.
 */
export interface Rejection {
  message: string;
  monotone: boolean;
}

// Hot-path refusals are shared constants: most are discarded, and building strings for them costs GC time.
const antiAffinity: Rejection = { message: 'would violate pod anti-affinity', monotone: true };
const inverseAntiAffinity: Rejection = { message: 'would violate the pod anti-affinity of a pod already there', monotone: true };
const hostnameSpread: Rejection = { message: 'would violate topology spread on kubernetes.io/hostname', monotone: true };

interface CountGroup {
  key: string;
  namespaces: ReadonlySet<string> | undefined;
  selector: CompiledLabelSelector;
  counts: Map<string, number>; // domain -> matching pods
  total: number;
  /** Bumped on every count change; keys the cached minimum over all known domains. */
  version: number;
  minCache?: { version: number; value: number };
}

interface PodLabels {
  namespace: string;
  labels: Readonly<Record<string, string>>;
}

function selects(group: { namespaces: ReadonlySet<string> | undefined; selector: CompiledLabelSelector }, pod: PodLabels): boolean {
  return (group.namespaces === undefined || group.namespaces.has(pod.namespace)) && group.selector.matches(pod.labels);
}

export class Topology {
  private readonly groups = new Map<string, CountGroup>();
  private readonly antiOwners = new Map<string, CountGroup>();
  /** key -> every domain known for it (zones of the NodePools' offerings, existing nodes' labels). */
  private readonly domains = new Map<string, Set<string>>();
  /** key -> domain -> who provides it: eligible for every pod, or for pods some source accepts. */
  private readonly sources = new Map<string, Map<string, DomainEligibility[] | typeof Always>>();
  /** `classKey|key` -> the domains pods of that shape may use (see DomainEligibility). */
  private readonly eligibleCache = new Map<string, string[]>();
  /** Groups matching a pod, cached by pod key (a pod's labels never change during a solve). */
  private readonly matchCache = new Map<string, CountGroup[]>();

  /** Adds a domain for a key; with `eligible`, only pods it accepts count the domain in spread minimums. */
  addDomain(key: string, domain: string, eligible?: DomainEligibility): void {
    for (const group of this.groups.values()) group.version++;
    this.eligibleCache.clear();
    let set = this.domains.get(key);
    if (!set) this.domains.set(key, (set = new Set()));
    set.add(domain);
    let byDomain = this.sources.get(key);
    if (!byDomain) this.sources.set(key, (byDomain = new Map()));
    const known = byDomain.get(domain);
    if (eligible === undefined || known === Always) byDomain.set(domain, Always);
    else byDomain.set(domain, [...(known ?? []), eligible]);
  }

  /** Registers the groups of a pod's terms; call for every pod before recording any. */
  register(terms: readonly TopologyTerm[]): void {
    for (const term of terms) {
      if (!this.groups.has(term.groupId)) this.groups.set(term.groupId, newGroup(term));
      if (term.kind === 'anti-affinity' && !this.antiOwners.has(term.groupId)) this.antiOwners.set(term.groupId, newGroup(term));
      this.matchCache.clear();
    }
  }

  /** Counts (delta +1) or uncounts (−1) a pod placed on a slot. */
  record(pod: PodLabels & { key: string; terms: readonly TopologyTerm[] }, domainOf: DomainOf, delta: 1 | -1): void {
    for (const group of this.matching(pod)) bump(group, domainOf(group.key), delta);
    for (const term of pod.terms) {
      if (term.kind === 'anti-affinity') bump(this.antiOwners.get(term.groupId) as CountGroup, domainOf(term.key), delta);
    }
  }

  /** Why the pod may not land on a slot with these domains, or undefined when every term holds. */
  violation(pod: PodInfo, domainOf: DomainOf): Rejection | undefined {
    for (const term of pod.terms) {
      const reason = this.termViolation(pod, term, domainOf);
      if (reason) return reason;
    }
    for (const owners of this.antiOwners.values()) {
      if (owners.total === 0 || !selects(owners, pod)) continue;
      const domain = domainOf(owners.key);
      if (domain !== undefined && (owners.counts.get(domain) ?? 0) > 0) return inverseAntiAffinity;
    }
    return undefined;
  }

  /** Matching pods in a domain for a term's group (0 when unknown). */
  count(term: TopologyTerm, domain: string): number {
    return this.groups.get(term.groupId)?.counts.get(domain) ?? 0;
  }

  private termViolation(pod: PodInfo, term: TopologyTerm, domainOf: DomainOf): Rejection | undefined {
    const group = this.groups.get(term.groupId) as CountGroup;
    const domain = domainOf(term.key);
    const count = domain === undefined ? 0 : (group.counts.get(domain) ?? 0);
    if (term.kind === 'anti-affinity') return count > 0 ? antiAffinity : undefined;
    if (domain === undefined) return { message: `node has no ${term.key} label for a ${term.kind} term`, monotone: true };
    if (term.kind === 'affinity') {
      if (count > 0 || (group.total === 0 && selects(group, pod))) return undefined;
      return { message: `pod affinity on ${term.key} not satisfied in ${domain}`, monotone: false };
    }
    const skew = count + (selects(group, pod) ? 1 : 0) - this.minCount(group, term.key, this.eligibleDomains(pod, term));
    if (skew <= term.maxSkew) return undefined;
    return term.key === LabelHostname
      ? hostnameSpread
      : { message: `would violate topology spread on ${term.key} (maxSkew ${term.maxSkew}) in ${domain}`, monotone: false };
  }

  /** The lowest count over the eligible domains (all known ones when undefined); a new node is always a possible hostname domain, so 0. */
  private minCount(group: CountGroup, key: string, eligibleZones?: readonly string[]): number {
    if (key === LabelHostname) return 0;
    if (eligibleZones === undefined && group.minCache?.version === group.version) return group.minCache.value;
    const domains: Iterable<string> = eligibleZones ?? this.domains.get(key) ?? [];
    let min = Infinity;
    for (const d of domains) min = Math.min(min, group.counts.get(d) ?? 0);
    const value = min === Infinity ? 0 : min;
    if (eligibleZones === undefined) group.minCache = { version: group.version, value };
    return value;
  }

  /** The domains of the term's key the pod may use, or undefined when that is every known domain. */
  private eligibleDomains(pod: PodInfo, term: TopologyTerm): readonly string[] | undefined {
    if (!pod.hasRequirements || !term.honorNodeAffinity || term.key === LabelHostname) return undefined;
    const byDomain = this.sources.get(term.key);
    if (!byDomain) return undefined;
    const cacheKey = `${pod.classKey}|${term.key}`;
    let eligible = this.eligibleCache.get(cacheKey);
    if (!eligible) {
      eligible = [];
      for (const [domain, sources] of byDomain) if (sources === Always || sources.some((accepts) => accepts(pod))) eligible.push(domain);
      this.eligibleCache.set(cacheKey, eligible);
    }
    return eligible;
  }

  private matching(pod: PodLabels & { key: string }): CountGroup[] {
    let found = this.matchCache.get(pod.key);
    if (!found) {
      found = [...this.groups.values()].filter((g) => selects(g, pod));
      this.matchCache.set(pod.key, found);
    }
    return found;
  }
}

function newGroup(term: TopologyTerm): CountGroup {
  return { key: term.key, namespaces: term.namespaces, selector: term.selector, counts: new Map(), total: 0, version: 0 };
}

function bump(group: CountGroup, domain: string | undefined, delta: 1 | -1): void {
  if (domain === undefined) return;
  group.counts.set(domain, (group.counts.get(domain) ?? 0) + delta);
  group.total += delta;
  group.version++;
}
