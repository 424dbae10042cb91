/**
 * metav1.LabelSelector matching (matchLabels ANDed with matchExpressions), plus Gt/Lt which the string
 * form (`?labelSelector=a>1`) allows. A missing selector matches nothing, an empty one everything, as
 * LabelSelectorAsSelector does.
 */
export type LabelSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

/** Structurally a V1LabelSelector. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export type Labels = Readonly<Record<string, string>>;

export class LabelSelectorError extends Error {
  override readonly name = 'LabelSelectorError';
}

interface CompiledExpression {
  key: string;
  operator: LabelSelectorOperator;
  values: ReadonlySet<string>;
  bound: number;
}

/** A selector checked once and ready to match many label sets. */
export class CompiledLabelSelector {
  private constructor(
    private readonly expressions: readonly CompiledExpression[],
    readonly matchesNothing: boolean,
  ) {}

  static compile(selector: LabelSelector | undefined | null): CompiledLabelSelector {
    if (selector === undefined || selector === null) return new CompiledLabelSelector([], true);
    const expressions: CompiledExpression[] = [];
    for (const key in selector.matchLabels) {
      expressions.push({ key, operator: 'In', values: new Set([selector.matchLabels[key] as string]), bound: 0 });
    }
    for (const e of selector.matchExpressions ?? []) expressions.push(compileExpression(e));
    return new CompiledLabelSelector(expressions, false);
  }

  get isEverything(): boolean {
    return !this.matchesNothing && this.expressions.length === 0;
  }

  matches(labels: Labels | undefined): boolean {
    if (this.matchesNothing) return false;
    const l = labels ?? {};
    for (const e of this.expressions) if (!expressionMatches(e, l[e.key])) return false;
    return true;
  }
}

export function labelSelectorMatches(selector: LabelSelector | undefined | null, labels: Labels | undefined): boolean {
  return CompiledLabelSelector.compile(selector).matches(labels);
}

function compileExpression(e: LabelSelectorRequirement): CompiledExpression {
  const values = e.values ?? [];
  const where = `label selector requirement ${JSON.stringify(e.key)} ${e.operator}`;
  switch (e.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) throw new LabelSelectorError(`${where}: values must be non-empty for In and NotIn`);
      return { key: e.key, operator: e.operator, values: new Set(values), bound: 0 };
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) throw new LabelSelectorError(`${where}: values must be empty for Exists and DoesNotExist`);
      return { key: e.key, operator: e.operator, values: new Set(), bound: 0 };
    case 'Gt':
    case 'Lt': {
      const raw = values[0];
      if (values.length !== 1 || raw === undefined || !/^[+-]?[0-9]+$/.test(raw)) {
        throw new LabelSelectorError(`${where}: exactly one integer value is required for Gt and Lt, got ${JSON.stringify(values)}`);
      }
      return { key: e.key, operator: e.operator, values: new Set(), bound: Number(raw) };
    }
    default:
      throw new LabelSelectorError(
        `${where}: operator is not supported; accepted: In, NotIn, Exists, DoesNotExist (Gt, Lt in the string form)`,
      );
  }
}

function expressionMatches(e: CompiledExpression, value: string | undefined): boolean {
  switch (e.operator) {
    case 'In':
      return value !== undefined && e.values.has(value);
    case 'NotIn':
      return value === undefined || !e.values.has(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      if (value === undefined || !/^[+-]?[0-9]+$/.test(value)) return false;
      const n = Number(value);
      return e.operator === 'Gt' ? n > e.bound : n < e.bound;
    }
  }
}
