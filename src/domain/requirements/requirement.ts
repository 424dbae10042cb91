/**
 * One label requirement as Karpenter represents it (pkg/scheduling/requirement.go): a value set that is
 * either the allowed values or, when `complement`, the excluded ones; plus inclusive integer bounds
 * (Gt N becomes Gte N+1, Lt N becomes Lte N−1) and minValues. Immutable.
 */
import type { RequirementSpec } from '../instancetypes/types.js';
import { normalizeLabelKey } from './well-known.js';

export type RequirementOperator = RequirementSpec['operator'];
export type NodeSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

export const RequirementOperators: readonly RequirementOperator[] = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt', 'Gte', 'Lte'];

export class RequirementError extends Error {
  override readonly name = 'RequirementError';
}

const integerPattern = /^[+-]?[0-9]+$/;
const emptyValues: ReadonlySet<string> = new Set();

export class Requirement {
  // eslint-disable-next-line max-params -- private, for the static factories; positional fields keep one small shape
  private constructor(
    readonly key: string,
    readonly complement: boolean,
    private readonly valueSet: ReadonlySet<string>,
    /** Inclusive lower bound. */
    readonly gte: number | undefined,
    /** Inclusive upper bound. */
    readonly lte: number | undefined,
    readonly minValues: number | undefined,
  ) {}

  /** NewRequirementWithFlexibility: the key is normalised (beta → GA); Gt/Lt/Gte/Lte take one integer. */
  static create(key: string, operator: RequirementOperator, values: readonly string[] = [], minValues?: number): Requirement {
    const k = normalizeLabelKey(key);
    switch (operator) {
      case 'In':
        return new Requirement(k, false, new Set(values), undefined, undefined, minValues);
      case 'NotIn':
        return new Requirement(k, true, new Set(values), undefined, undefined, minValues);
      case 'Exists':
        return new Requirement(k, true, emptyValues, undefined, undefined, minValues);
      case 'DoesNotExist':
        return new Requirement(k, false, emptyValues, undefined, undefined, minValues);
      case 'Gt': {
        const bound = boundValue(k, operator, values);
        // Nothing is greater than the largest integer.
        if (bound >= Number.MAX_SAFE_INTEGER) return new Requirement(k, false, emptyValues, undefined, undefined, minValues);
        return new Requirement(k, true, emptyValues, bound + 1, undefined, minValues);
      }
      case 'Lt':
        return new Requirement(k, true, emptyValues, undefined, boundValue(k, operator, values) - 1, minValues);
      case 'Gte':
        return new Requirement(k, true, emptyValues, boundValue(k, operator, values), undefined, minValues);
      case 'Lte':
        return new Requirement(k, true, emptyValues, undefined, boundValue(k, operator, values), minValues);
      default:
        throw new RequirementError(
          `creating requirement for key ${k}: operator ${JSON.stringify(operator)} is not supported; accepted: ${RequirementOperators.join(', ')}`,
        );
    }
  }

  static fromSpec(spec: RequirementSpec): Requirement {
    return Requirement.create(spec.key, spec.operator, spec.values ?? [], spec.minValues);
  }

  /** The explicit values (allowed, or excluded when complement), sorted. */
  values(): string[] {
    return [...this.valueSet].sort();
  }

  get valueCount(): number {
    return this.valueSet.size;
  }

  operator(): NodeSelectorOperator {
    if (this.complement) return this.valueSet.size > 0 ? 'NotIn' : 'Exists';
    return this.valueSet.size > 0 ? 'In' : 'DoesNotExist';
  }

  /** Whether a node label with this value satisfies the requirement. */
  has(value: string): boolean {
    const listed = this.valueSet.has(value);
    return (this.complement ? !listed : listed) && withinBounds(value, this.gte, this.lte);
  }

  /** Whether a node without this label satisfies the requirement (NotIn without bounds, DoesNotExist). */
  allowsAbsent(): boolean {
    if (this.gte !== undefined || this.lte !== undefined) return false;
    return this.complement ? this.valueSet.size > 0 : this.valueSet.size === 0;
  }

  intersection(other: Requirement): Requirement {
    const complement = this.complement && other.complement;
    const gte = maxBound(this.gte, other.gte);
    const lte = minBound(this.lte, other.lte);
    const minValues = maxBound(this.minValues, other.minValues);
    if (gte !== undefined && lte !== undefined && gte > lte) {
      return new Requirement(this.key, false, emptyValues, undefined, undefined, minValues);
    }
    const values = this.combineValues(other);
    for (const v of values) if (!withinBounds(v, gte, lte)) values.delete(v);
    // Concrete sets drop their bounds: the values already respect them.
    return complement
      ? new Requirement(this.key, true, values, gte, lte, minValues)
      : new Requirement(this.key, false, values, undefined, undefined, minValues);
  }

  private combineValues(other: Requirement): Set<string> {
    const a = this.valueSet;
    const b = other.valueSet;
    const out = new Set<string>();
    if (this.complement && other.complement) {
      for (const v of a) out.add(v);
      for (const v of b) out.add(v);
    } else if (this.complement) {
      for (const v of b) if (!a.has(v)) out.add(v);
    } else if (other.complement) {
      for (const v of a) if (!b.has(v)) out.add(v);
    } else {
      for (const v of a) if (b.has(v)) out.add(v);
    }
    return out;
  }

  /** Whether the intersection admits a value, without building it (HasIntersection). */
  hasIntersection(other: Requirement): boolean {
    const gte = maxBound(this.gte, other.gte);
    const lte = minBound(this.lte, other.lte);
    if (gte !== undefined && lte !== undefined && gte > lte) return false;
    if (this.complement && other.complement) return true;
    if (this.complement) return someValue(other.valueSet, (v) => !this.valueSet.has(v) && withinBounds(v, gte, lte));
    if (other.complement) return someValue(this.valueSet, (v) => !other.valueSet.has(v) && withinBounds(v, gte, lte));
    const [small, large] = this.valueSet.size <= other.valueSet.size ? [this.valueSet, other.valueSet] : [other.valueSet, this.valueSet];
    return someValue(small, (v) => large.has(v) && withinBounds(v, gte, lte));
  }

  /**
   * A value that satisfies the requirement, chosen deterministically (upstream picks at random): the
   * smallest allowed value, or the smallest non-negative integer within the bounds that is not excluded.
   */
  any(): string {
    const op = this.operator();
    if (op === 'In') return this.values()[0] as string;
    if (op === 'DoesNotExist') return '';
    const upper = this.lte ?? Number.MAX_SAFE_INTEGER;
    for (let n = Math.max(this.gte ?? 0, 0); n <= upper; n++) {
      if (!this.valueSet.has(String(n))) return String(n);
    }
    return '';
  }

  withMinValues(minValues: number | undefined): Requirement {
    return new Requirement(this.key, this.complement, this.valueSet, this.gte, this.lte, minValues);
  }

  /** As NodeSelectorRequirementWithMinValues: two entries (Gte and Lte) when both bounds exist. */
  toSpecs(): RequirementSpec[] {
    const withMin = (spec: RequirementSpec): RequirementSpec =>
      this.minValues === undefined ? spec : { ...spec, minValues: this.minValues };
    if (this.gte !== undefined && this.lte !== undefined) {
      return [
        withMin({ key: this.key, operator: 'Gte', values: [String(this.gte)] }),
        withMin({ key: this.key, operator: 'Lte', values: [String(this.lte)] }),
      ];
    }
    if (this.gte !== undefined) return [withMin({ key: this.key, operator: 'Gte', values: [String(this.gte)] })];
    if (this.lte !== undefined) return [withMin({ key: this.key, operator: 'Lte', values: [String(this.lte)] })];
    const op = this.operator();
    if (op === 'In' || op === 'NotIn') return [withMin({ key: this.key, operator: op, values: this.values() })];
    return [withMin({ key: this.key, operator: op })];
  }

  toString(): string {
    const op = this.operator();
    let s: string;
    if (op === 'Exists' || op === 'DoesNotExist') {
      s = `${this.key} ${op}`;
    } else {
      const values = this.values();
      const shown = values.length > 5 ? [...values.slice(0, 5), `and ${values.length - 5} others`] : values;
      s = `${this.key} ${op} [${shown.join(' ')}]`;
    }
    if (this.gte !== undefined) s += ` >=${this.gte}`;
    if (this.lte !== undefined) s += ` <=${this.lte}`;
    if (this.minValues !== undefined) s += ` minValues ${this.minValues}`;
    return s;
  }
}

function boundValue(key: string, operator: RequirementOperator, values: readonly string[]): number {
  const raw = values[0];
  if (values.length !== 1 || raw === undefined || !integerPattern.test(raw)) {
    throw new RequirementError(
      `creating requirement for key ${key}: operator ${operator} takes exactly one integer value, got ${JSON.stringify(values)}`,
    );
  }
  return Number(raw);
}

function someValue(values: ReadonlySet<string>, predicate: (value: string) => boolean): boolean {
  for (const v of values) if (predicate(v)) return true;
  return false;
}

/** Bounds admit only integers: a non-integer value is outside any bound. */
export function withinBounds(value: string, gte: number | undefined, lte: number | undefined): boolean {
  if (gte === undefined && lte === undefined) return true;
  if (!integerPattern.test(value)) return false;
  const n = Number(value);
  return (gte === undefined || n >= gte) && (lte === undefined || n <= lte);
}

function maxBound(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a > b ? a : b;
}

function minBound(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a < b ? a : b;
}
