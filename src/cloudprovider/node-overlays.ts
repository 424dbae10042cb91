/**
 * NodeOverlays at the CloudProvider port (upstream's `overlay.Decorate`): every instance-type list the
 * controllers read (provisioning, consolidation, in-flight capacity, node prices) is the one the overlays
 * make the simulation see. `create` launches the cheapest offering by the same prices and resources: the
 * NodeClaim's instance types are narrowed to the cheapest ones once repriced, so the cloud's own cheapest-first
 * choice cannot undo what the overlays decided, and the launched NodeClaim carries the overlaid capacity.
 */
import { LabelInstanceType, LabelNodePool } from '../apis/v1/labels.js';
import { availableOnly, compatibleOfferings } from '../domain/instancetypes/offering-choice.js';
import type { InstanceType } from '../domain/instancetypes/types.js';
import { applyNodeOverlays, type NodeOverlayLike } from '../domain/nodeoverlay/apply.js';
import { decorateCloudProvider } from './decorate.js';
import type { CloudNodeClaim, CloudProvider, CloudProviderNodeClaim, CloudProviderNodePool } from './types.js';

export interface NodeOverlaySource {
  /** The NodeOverlays stored now. */
  overlays(): readonly NodeOverlayLike[];
  /** The NodePool of that name, to reprice a NodeClaim's instance types before its launch. */
  nodePool(name: string): CloudProviderNodePool | undefined;
}

/** `inner` with instance types repriced and launches narrowed by the overlays; every other member forwarded. */
export function overlaidCloudProvider(inner: CloudProvider, source: NodeOverlaySource): CloudProvider {
  return decorateCloudProvider(inner, {
    getInstanceTypes: (next) => async (nodePool) => {
      const types = await next(nodePool);
      const overlays = source.overlays();
      return overlays.length === 0 ? types : applyNodeOverlays(types, poolOf(nodePool), overlays);
    },
    create: (next) => async (nodeClaim) => {
      const plan = await launchPlan(inner, source, nodeClaim);
      const launched = await next(plan.claim);
      return plan.types ? withOverlaidCapacity(launched, plan.types) : launched;
    },
  });
}

function poolOf(nodePool: CloudProviderNodePool): { name: string; labels: Record<string, string> } {
  return { name: nodePool.metadata?.name ?? '', labels: nodePool.spec.template.metadata?.labels ?? {} };
}

/**
 * What the cloud is asked to launch: the instance types narrowed to the cheapest available ones at the
 * overlaid prices, and requests of overlay-added resources (a GPU shared four ways) cut to what the flavor
 * itself has, since the cloud checks requests against its own flavors.
 */
async function launchPlan(inner: CloudProvider, source: NodeOverlaySource, nodeClaim: CloudProviderNodeClaim): Promise<LaunchPlan> {
  const overlays = source.overlays();
  if (overlays.length === 0) return { claim: nodeClaim };
  const pool = source.nodePool(nodeClaim.metadata?.labels?.[LabelNodePool] ?? '');
  if (!pool) return { claim: nodeClaim };
  const raw = await inner.getInstanceTypes(pool);
  const overlaid = applyNodeOverlays(raw, poolOf(pool), overlays);
  const types = pairTypes(raw, overlaid);
  const candidates = availableOnly(compatibleOfferings(overlaid, nodeClaim.spec));
  const cheapest = candidates[0]?.offering.pricePerHour;
  if (cheapest === undefined) return { claim: nodeClaim, types };
  const names = [...new Set(candidates.filter((c) => c.offering.pricePerHour - cheapest < PriceEpsilon).map((c) => c.instanceType.name))];
  return { claim: narrowed(nodeClaim, names, types), types };
}

/** Prices that differ by less than this are the same price (sums of float prices). */
const PriceEpsilon = 1e-9;

/** Each instance type as the cloud sells it and as the overlays make the simulation see it, by name. */
type TypePairs = ReadonlyMap<string, { raw: InstanceType; overlaid: InstanceType }>;

interface LaunchPlan {
  claim: CloudProviderNodeClaim;
  types?: TypePairs;
}

function pairTypes(raw: readonly InstanceType[], overlaid: readonly InstanceType[]): TypePairs {
  return new Map(raw.map((t, i) => [t.name, { raw: t, overlaid: overlaid[i] ?? t }]));
}

/** The resources overlays set on a type, with their overlaid amounts. */
function overlayAdded(pair: { raw: InstanceType; overlaid: InstanceType }): Record<string, number> {
  return Object.fromEntries(Object.entries(pair.overlaid.capacity).filter(([r, amount]) => pair.raw.capacity[r] !== amount));
}

/** The claim with instance types `names` only, and requests of overlay-set resources cut to what the flavors have. */
function narrowed(nodeClaim: CloudProviderNodeClaim, names: readonly string[], types: TypePairs): CloudProviderNodeClaim {
  const requirements = nodeClaim.spec.requirements.map((r) =>
    r.key === LabelInstanceType && r.operator === 'In' && r.minValues === undefined ? { ...r, values: [...names] } : r,
  );
  const pairs = names.flatMap((n) => types.get(n) ?? []);
  const requests: Record<string, string | number> = { ...(nodeClaim.spec.resources?.requests ?? {}) };
  for (const resource of Object.keys(requests)) {
    if (!pairs.some((p) => resource in overlayAdded(p))) continue;
    const own = Math.min(...pairs.map((p) => p.raw.allocatable[resource] ?? 0));
    if (own > 0) requests[resource] = String(own);
    else delete requests[resource];
  }
  return { ...nodeClaim, spec: { ...nodeClaim.spec, requirements, resources: { ...nodeClaim.spec.resources, requests } } };
}

/** What the cloud launched, with the resources the overlays add to its type (the NodeClaim's status shows them). */
function withOverlaidCapacity(launched: CloudNodeClaim, types: TypePairs): CloudNodeClaim {
  const pair = types.get(launched.instanceType);
  const added = pair ? overlayAdded(pair) : {};
  if (Object.keys(added).length === 0) return launched;
  return { ...launched, capacity: { ...launched.capacity, ...added }, allocatable: { ...launched.allocatable, ...added } };
}
