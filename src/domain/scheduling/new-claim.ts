/**
 * Opening a new NodeClaim for a pod on one NodePool: taints, requirements, `limits.nodes`, then a zone where
 * some instance type fits and topology holds. The zone with the cheapest fitting offering wins; among equal
 * prices the one with the fewest pods of the pod's spread groups (upstream picks the emptiest domain).
 */
import { LabelHostname, LabelTopologyZone } from '../../apis/v1/labels.js';
import { formatResourceList } from '../quantity/index.js';
import { AllowUndefinedWellKnownLabels, firstUntoleratedTaint, formatTaint, type Requirements } from '../requirements/index.js';
import { cheapestInZone, ClaimSlot, zoneCandidates, zoneRequirement } from './claim-slot.js';
import { nodeFits, resourcesFit } from '../nodepool/limits.js';
import { type PreparedNodePool, typeMeets } from './nodepool-template.js';
import type { PodInfo } from './pod-info.js';
import type { Topology } from './topology.js';

interface ZoneChoice {
  zone: string;
  price: number;
  spreadCount: number;
}

/** A new claim holding the pod (not yet committed), or why this NodePool cannot take it. */
export function openClaim(
  pool: PreparedNodePool,
  pod: PodInfo,
  hostname: string,
  topology: Topology,
): { claim: ClaimSlot; price: number } | string {
  if (pool.note) return pool.note;
  if (!nodeFits(pool.remaining)) return 'limits.nodes reached';
  const taint = firstUntoleratedTaint(pool.taints, pod.tolerations);
  if (taint) return `did not tolerate taint ${formatTaint(taint)}`;
  const incompatible = pod.hasRequirements ? pool.requirements.compatible(pod.requirements, AllowUndefinedWellKnownLabels) : undefined;
  if (incompatible) return `incompatible requirements: ${incompatible.message}`;
  const requirements = pod.hasRequirements ? pool.requirements.intersection(pod.requirements) : pool.requirements;
  const zoneReq = requirements.has(LabelTopologyZone) ? requirements.get(LabelTopologyZone) : undefined;
  const zones = pool.zones.filter((z) => !zoneReq || zoneReq.has(z));
  if (zones.length === 0) return `no zone in both the NodePool's (${pool.zones.join(', ')}) and the pod's requirements`;
  const best = bestZone(pool, pod, { zones, hostname }, requirements, topology);
  if (typeof best === 'string') return best;
  const claimRequirements = requirements.copy().add(zoneRequirement(best.zone));
  const claim = new ClaimSlot(hostname, pool, best.zone, claimRequirements, best.candidates);
  return { claim, price: best.price };
}

function bestZone(
  pool: PreparedNodePool,
  pod: PodInfo,
  where: { zones: readonly string[]; hostname: string },
  requirements: Requirements,
  topology: Topology,
): (ZoneChoice & { candidates: ClaimSlot['candidates'] }) | string {
  const { zones, hostname } = where;
  let best: ZoneChoice | undefined;
  let topologyReason: string | undefined;
  for (const zone of zones) {
    const domainOf = (key: string): string | undefined => (key === LabelTopologyZone ? zone : key === LabelHostname ? hostname : undefined);
    const violation = topology.violation(pod, domainOf);
    if (violation) {
      topologyReason = violation.message;
      continue;
    }
    const price = cheapestInZone(pool, zone, pod, requirements);
    if (price === undefined) continue;
    const choice = { zone, price, spreadCount: spreadCount(pod, zone, topology) };
    if (!best || choice.price < best.price || (choice.price === best.price && choice.spreadCount < best.spreadCount)) best = choice;
  }
  const candidates = best ? zoneCandidates(pool, best.zone, pod, requirements) : [];
  if (best && candidates.length > 0) return { ...best, candidates };
  return topologyReason ?? diagnose(pool, pod, requirements);
}

function spreadCount(pod: PodInfo, zone: string, topology: Topology): number {
  let sum = 0;
  for (const term of pod.terms) if (term.kind === 'spread' && term.key === LabelTopologyZone) sum += topology.count(term, zone);
  return sum;
}

/** Why no instance type of the pool fits: requirements, resources or limits (only computed on failure). */
function diagnose(pool: PreparedNodePool, pod: PodInfo, requirements: Requirements): string {
  const meeting = pool.types.filter((t) => !pod.hasRequirements || typeMeets(requirements, t.type));
  if (meeting.length === 0) return `no instance type meets the requirements ${requirements.toString()}`;
  const dra = pod.dra;
  if (dra && dra.claims.length > 0 && !meeting.some((t) => dra.context.flavorFits(t.type, dra.claims)))
    return `no instance type publishes devices that satisfy the pod's resource claims (${dra.claims.map((c) => c.key).join(', ')}; ${meeting.length} types meet the requirements)`;
  const fitting = meeting.filter((t) => Object.entries(pod.requests).every(([name, v]) => v <= (t.allocatable[name] ?? 0)));
  const wanted = JSON.stringify(formatResourceList(pod.requests));
  if (fitting.length === 0)
    return `no instance type has enough resources for requests ${wanted} (${meeting.length} types meet the requirements)`;
  if (!fitting.some((t) => resourcesFit(pool.remaining, t.type.capacity, {})))
    return `every fitting instance type would exceed the NodePool limits (remaining ${JSON.stringify(pool.remaining)})`;
  return 'no fitting instance type meets minValues or has an available offering in an allowed zone';
}
