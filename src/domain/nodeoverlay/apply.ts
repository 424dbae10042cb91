/**
 * NodeOverlays applied to instance types (pure): what the scheduling simulation believes about an offering's
 * price and an instance type's extended resources, upstream's semantics (pkg/controllers/nodeoverlay):
 *
 * - an overlay matches an offering when its requirements hold for the offering's labels: the instance type's
 *   labels, its name, zone and capacity type, and the NodePool's name and template labels;
 * - overlays are taken by weight, highest first (unset is 0), then by name, later in the alphabet first;
 * - price: the first overlay with `price` or `priceAdjustment` that matches an offering sets its price;
 * - capacity: an overlay matching any offering of a type adds its resources to the type; per resource the
 *   first overlay wins, resources of different overlays merge;
 * - two overlays of equal weight that both set the price of one offering, or one resource of one type,
 *   conflict: the one taken second is not applied at all (its status says so).
 */
import { LabelInstanceType, LabelNodePool, LabelTopologyZone } from '../../apis/v1/labels.js';
import { offeringLabels } from '../instancetypes/offering-choice.js';
import type { InstanceType, RequirementSpec, ResourceList } from '../instancetypes/types.js';
import { parseResourceList, type QuantityMap } from '../quantity/index.js';
import { Requirements } from '../requirements/requirements.js';
import { adjustedPrice, type PriceChange, priceChangeOf } from './price.js';

/** A NodeOverlay as stored: its name and spec. */
export interface NodeOverlayLike {
  metadata?: { name?: string };
  spec: {
    requirements?: readonly RequirementSpec[];
    weight?: number;
    price?: string;
    priceAdjustment?: string;
    capacity?: QuantityMap;
  };
}

/** The NodePool an instance type is offered through: overlays may select on its name and template labels. */
export interface OverlayPool {
  name: string;
  labels?: Readonly<Record<string, string>>;
}

interface CompiledOverlay {
  name: string;
  weight: number;
  requirements: Requirements;
  price?: PriceChange;
  capacity: ResourceList;
}

export interface OverlayConflict {
  /** The overlay not applied. */
  overlay: string;
  /** The overlay of the same weight applied instead. */
  with: string;
  weight: number;
  field: 'price' | 'capacity';
  /** For capacity: the resource both set. */
  resource?: string;
  /** The instance type (and zone, for price) where they meet. */
  instanceType: string;
  zone?: string;
}

/** The offerings (label sets) of one instance type, in one NodePool. */
export interface OverlayTarget {
  instanceType: string;
  offerings: readonly { zone: string; labels: Readonly<Record<string, string>> }[];
}

export interface OverlayResolution {
  /** Applied overlays, in precedence order. */
  applied: readonly CompiledOverlay[];
  conflicts: readonly OverlayConflict[];
  /** Overlays whose requirements or capacity cannot be read (the schema refuses them), by name: why. */
  invalid: ReadonlyMap<string, string>;
}

/** The overlay ready to match, or why it cannot be (an object past the schema anyway changes nothing). */
function compile(overlay: NodeOverlayLike): CompiledOverlay | string {
  const spec = overlay.spec;
  let capacity: ResourceList;
  let requirements: Requirements;
  try {
    capacity = parseResourceList(spec.capacity);
    requirements = Requirements.fromSpecs(spec.requirements ?? []);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const price = priceChangeOf(spec);
  return { name: overlay.metadata?.name ?? '', weight: spec.weight ?? 0, requirements, ...(price ? { price } : {}), capacity };
}

/** Precedence: higher weight first; equal weights, the name later in the alphabet first (upstream's OrderByWeight). */
function byPrecedence(a: CompiledOverlay, b: CompiledOverlay): number {
  if (a.weight !== b.weight) return b.weight - a.weight;
  if (a.name === b.name) return 0;
  return a.name > b.name ? -1 : 1;
}

export function poolLabels(pool: OverlayPool): Record<string, string> {
  return { ...(pool.labels ?? {}), [LabelNodePool]: pool.name };
}

/** Each instance type's offerings as the label sets overlays select on. */
export function overlayTargets(types: readonly InstanceType[], pool: OverlayPool): OverlayTarget[] {
  const extra = poolLabels(pool);
  return types.map((t) => ({
    instanceType: t.name,
    offerings: t.offerings.map((o) => ({ zone: o.zone, labels: { ...offeringLabels(t, o), ...extra } })),
  }));
}

function conflictIn(candidate: CompiledOverlay, accepted: readonly CompiledOverlay[], target: OverlayTarget): OverlayConflict | undefined {
  const matched = target.offerings.filter((o) => candidate.requirements.matchesLabels(o.labels));
  if (matched.length === 0) return undefined;
  for (const other of accepted) {
    if (other.weight !== candidate.weight) continue;
    const base = { overlay: candidate.name, with: other.name, weight: candidate.weight, instanceType: target.instanceType };
    if (candidate.price && other.price) {
      const shared = matched.find((o) => other.requirements.matchesLabels(o.labels));
      if (shared) return { ...base, field: 'price', zone: shared.zone };
    }
    const resource = Object.keys(candidate.capacity).find((r) => r in other.capacity);
    if (resource !== undefined && target.offerings.some((o) => other.requirements.matchesLabels(o.labels)))
      return { ...base, field: 'capacity', resource };
  }
  return undefined;
}

/** Which overlays apply over these targets, in precedence order, and which conflict (upstream: atomically). */
export function resolveOverlays(overlays: readonly NodeOverlayLike[], targets: readonly OverlayTarget[]): OverlayResolution {
  const invalid = new Map<string, string>();
  const ordered: CompiledOverlay[] = [];
  for (const overlay of overlays) {
    const compiled = compile(overlay);
    if (typeof compiled === 'string') invalid.set(overlay.metadata?.name ?? '', compiled);
    else ordered.push(compiled);
  }
  ordered.sort(byPrecedence);
  const applied: CompiledOverlay[] = [];
  const conflicts: OverlayConflict[] = [];
  for (const candidate of ordered) {
    let conflict: OverlayConflict | undefined;
    for (const target of targets) if ((conflict = conflictIn(candidate, applied, target))) break;
    if (conflict) conflicts.push(conflict);
    else applied.push(candidate);
  }
  return { applied, conflicts, invalid };
}

/** The price of an offering with these labels under the applied overlays (the first with a price that matches). */
export function overlaidPrice(resolution: OverlayResolution, labels: Readonly<Record<string, string>>, price: number): number {
  const overlay = resolution.applied.find((o) => o.price && o.requirements.matchesLabels(labels));
  return overlay?.price ? adjustedPrice(price, overlay.price) : price;
}

/** The extended resources the applied overlays add to a type whose offerings have these labels. */
function overlaidCapacity(resolution: OverlayResolution, offerings: OverlayTarget['offerings']): ResourceList {
  const added: Record<string, number> = {};
  for (const overlay of resolution.applied) {
    if (!offerings.some((o) => overlay.requirements.matchesLabels(o.labels))) continue;
    for (const [resource, amount] of Object.entries(overlay.capacity)) if (!(resource in added)) added[resource] = amount;
  }
  return added;
}

function overlaidType(type: InstanceType, target: OverlayTarget, resolution: OverlayResolution): InstanceType {
  const added = overlaidCapacity(resolution, target.offerings);
  let changed = Object.keys(added).length > 0;
  const offerings = type.offerings.map((offering, i) => {
    const labels = target.offerings[i]?.labels ?? {};
    const pricePerHour = overlaidPrice(resolution, labels, offering.pricePerHour);
    if (pricePerHour === offering.pricePerHour) return offering;
    changed = true;
    return { ...offering, pricePerHour };
  });
  if (!changed) return type;
  // Extended resources have no kubelet reservation: what is added to capacity is allocatable too.
  return { ...type, offerings, capacity: { ...type.capacity, ...added }, allocatable: { ...type.allocatable, ...added } };
}

/**
 * The instance types as the simulation should see them in `pool`: offerings repriced and extended resources
 * added by the overlays that apply. Types no overlay touches are returned as they are.
 */
export function applyNodeOverlays(types: readonly InstanceType[], pool: OverlayPool, overlays: readonly NodeOverlayLike[]): InstanceType[] {
  if (overlays.length === 0) return [...types];
  const targets = overlayTargets(types, pool);
  const resolution = resolveOverlays(overlays, targets);
  if (resolution.applied.length === 0) return [...types];
  return types.map((type, i) => overlaidType(type, targets[i] as OverlayTarget, resolution));
}

/**
 * A node's price under the overlays: its labels carry what an offering's do (type, zone, capacity type, NodePool
 * and template labels), so the same rule prices it as the simulation priced its offering.
 */
export function overlaidNodePrice(labels: Readonly<Record<string, string>>, price: number, overlays: readonly NodeOverlayLike[]): number {
  if (overlays.length === 0) return price;
  const target: OverlayTarget = {
    instanceType: labels[LabelInstanceType] ?? '',
    offerings: [{ zone: labels[LabelTopologyZone] ?? '', labels }],
  };
  return overlaidPrice(resolveOverlays(overlays, [target]), labels, price);
}
