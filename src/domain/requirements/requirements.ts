/**
 * Requirements keyed by label (Karpenter pkg/scheduling/requirements.go): adding a requirement for a key
 * already present intersects the two. Compatibility follows upstream: keys the other side leaves
 * undefined are fine when they are "allowed undefined" (the well-known labels) or negative (NotIn,
 * DoesNotExist); keys on both sides must intersect.
 */
import type { RequirementSpec } from '../instancetypes/types.js';
import { type Incompatibility, noIntersection, undefinedLabel } from './incompatibility.js';
import { Requirement } from './requirement.js';
import { RestrictedLabels, WellKnownLabels } from './well-known.js';

export interface CompatibilityOptions {
  /** Keys the receiver may leave undefined while the argument constrains them. */
  allowUndefined?: ReadonlySet<string>;
}

export const AllowUndefinedWellKnownLabels: CompatibilityOptions = { allowUndefined: WellKnownLabels };

const noKeys: ReadonlySet<string> = new Set();

export class Requirements {
  private readonly byKey = new Map<string, Requirement>();

  constructor(requirements: Iterable<Requirement> = []) {
    this.add(...requirements);
  }

  static fromSpecs(specs: readonly RequirementSpec[] | undefined): Requirements {
    const r = new Requirements();
    for (const spec of specs ?? []) r.add(Requirement.fromSpec(spec));
    return r;
  }

  /** One `In [value]` per label. */
  static fromLabels(labels: Readonly<Record<string, string>> | undefined): Requirements {
    const r = new Requirements();
    for (const key in labels) r.add(Requirement.create(key, 'In', [labels[key] as string]));
    return r;
  }

  /** Adds (intersecting with an existing requirement on the same key). Mutates; returns this. */
  add(...requirements: Requirement[]): this {
    for (const requirement of requirements) {
      const existing = this.byKey.get(requirement.key);
      this.byKey.set(requirement.key, existing ? requirement.intersection(existing) : requirement);
    }
    return this;
  }

  copy(): Requirements {
    const r = new Requirements();
    for (const [key, value] of this.byKey) r.byKey.set(key, value);
    return r;
  }

  /** A new Requirements holding both sides intersected key by key. */
  intersection(other: Requirements): Requirements {
    return this.copy().add(...other.values());
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** The requirement on key; an undefined key allows any value (Exists). */
  get(key: string): Requirement {
    return this.byKey.get(key) ?? Requirement.create(key, 'Exists');
  }

  keys(): string[] {
    return [...this.byKey.keys()];
  }

  values(): Requirement[] {
    return [...this.byKey.values()];
  }

  get size(): number {
    return this.byKey.size;
  }

  hasMinValues(): boolean {
    for (const r of this.byKey.values()) if (r.minValues !== undefined) return true;
    return false;
  }

  /** Whether `incoming` can loosely be met by this side; the first reason it cannot, else undefined. */
  compatible(incoming: Requirements, options: CompatibilityOptions = {}): Incompatibility | undefined {
    const allowUndefined = options.allowUndefined ?? noKeys;
    for (const [key, requirement] of incoming.byKey) {
      if (allowUndefined.has(key) || this.byKey.has(key)) continue;
      const op = requirement.operator();
      if (op === 'NotIn' || op === 'DoesNotExist') continue;
      return undefinedLabel(key, labelHint(this, key, allowUndefined));
    }
    return this.intersects(incoming);
  }

  isCompatible(incoming: Requirements, options: CompatibilityOptions = {}): boolean {
    return this.compatible(incoming, options) === undefined;
  }

  /** The first key defined on both sides whose requirements share no value (negative pairs pass). */
  intersects(incoming: Requirements): Incompatibility | undefined {
    const [small, large] = this.byKey.size <= incoming.byKey.size ? [this.byKey, incoming.byKey] : [incoming.byKey, this.byKey];
    for (const key of small.keys()) {
      if (!large.has(key)) continue;
      const existing = this.byKey.get(key) as Requirement;
      const other = incoming.byKey.get(key) as Requirement;
      if (existing.hasIntersection(other)) continue;
      if (isNegative(other) && isNegative(existing)) continue;
      return noIntersection(key, other, existing);
    }
    return undefined;
  }

  /** Whether node labels satisfy every requirement (absent labels satisfy NotIn and DoesNotExist). */
  matchesLabels(labels: Readonly<Record<string, string>>): boolean {
    for (const [key, requirement] of this.byKey) {
      const value = labels[key];
      if (value === undefined ? !requirement.allowsAbsent() : !requirement.has(value)) return false;
    }
    return true;
  }

  /**
   * Node labels for the custom (not well-known, not restricted) requirements: the single value of an
   * `In`, otherwise a deterministic value the requirement admits (upstream resolveCustomLabelsFromRequirements).
   */
  labels(): Record<string, string> {
    const labels: Record<string, string> = {};
    for (const [key, requirement] of this.byKey) {
      if (WellKnownLabels.has(key) || RestrictedLabels.has(key)) continue;
      const value = requirement.any();
      if (value !== '') labels[key] = value;
    }
    return labels;
  }

  toSpecs(): RequirementSpec[] {
    return this.values().flatMap((r) => r.toSpecs());
  }

  /** Sorted, without restricted labels, as upstream prints them in events. */
  toString(): string {
    return this.values()
      .filter((r) => !RestrictedLabels.has(r.key))
      .map((r) => r.toString())
      .sort()
      .join(', ');
  }
}

function isNegative(requirement: Requirement): boolean {
  const op = requirement.operator();
  return op === 'NotIn' || op === 'DoesNotExist';
}

function keySuffix(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? key : key.slice(slash + 1);
}

function labelHint(existing: Requirements, key: string, allowUndefined: ReadonlySet<string>): string | undefined {
  const suffix = keySuffix(key);
  for (const candidate of [...allowUndefined, ...existing.keys()]) {
    if (candidate.includes(key) || candidate.endsWith(suffix)) return candidate;
  }
  return undefined;
}
