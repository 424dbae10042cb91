/**
 * Label selectors in both forms kube-apiserver accepts: the query-string syntax
 * (`a=b,c!=d,e in (x,y),f notin (z),g,!h`) and the metav1.LabelSelector object (matchLabels/matchExpressions).
 */
import { badRequest } from './errors.js';

export type Labels = Record<string, string> | undefined;

export interface LabelRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
  values: string[];
}

export interface LabelSelectorObject {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}

export function matchesRequirement(labels: Labels, req: LabelRequirement): boolean {
  const value = labels?.[req.key];
  switch (req.operator) {
    case 'In':
      return value !== undefined && req.values.includes(value);
    case 'NotIn':
      return value === undefined || !req.values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
      return value !== undefined && Number(value) > Number(req.values[0]);
    case 'Lt':
      return value !== undefined && Number(value) < Number(req.values[0]);
  }
}

export function matchesAll(labels: Labels, requirements: readonly LabelRequirement[]): boolean {
  return requirements.every((r) => matchesRequirement(labels, r));
}

/** Splits on commas that are not inside parentheses. */
function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < selector.length; i++) {
    const ch = selector[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms.map((t) => t.trim()).filter((t) => t !== '');
}

const keyPattern = /^([a-z0-9A-Z]([-a-z0-9A-Z_.]*[a-z0-9A-Z])?\/)?[a-z0-9A-Z]([-a-z0-9A-Z_.]*[a-z0-9A-Z])?$/;

function checkKey(key: string, selector: string): string {
  if (!keyPattern.test(key)) throw badRequest(`unable to parse requirement: invalid label key "${key}" in selector "${selector}"`);
  return key;
}

function parseTerm(term: string, selector: string): LabelRequirement {
  const setMatch = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(term);
  if (setMatch) {
    const values = (setMatch[3] ?? '').split(',').map((v) => v.trim()).filter((v) => v !== '');
    return { key: checkKey(setMatch[1] ?? '', selector), operator: setMatch[2] === 'in' ? 'In' : 'NotIn', values };
  }
  const opMatch = /^([^!=<>\s]+)\s*(==|=|!=|>|<)\s*(\S*)$/.exec(term);
  if (opMatch) {
    const key = checkKey(opMatch[1] ?? '', selector);
    const value = opMatch[3] ?? '';
    switch (opMatch[2]) {
      case '!=':
        return { key, operator: 'NotIn', values: [value] };
      case '>':
        return { key, operator: 'Gt', values: [value] };
      case '<':
        return { key, operator: 'Lt', values: [value] };
      default:
        return { key, operator: 'In', values: [value] };
    }
  }
  if (term.startsWith('!')) return { key: checkKey(term.slice(1).trim(), selector), operator: 'DoesNotExist', values: [] };
  return { key: checkKey(term, selector), operator: 'Exists', values: [] };
}

/** Parses the `labelSelector` query syntax; throws a 400 ApiError on malformed input. */
export function parseLabelSelector(selector: string | undefined | null): LabelRequirement[] {
  if (!selector) return [];
  return splitTerms(selector).map((term) => parseTerm(term, selector));
}

const operators = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist']);

/** Converts a metav1.LabelSelector; `null`/undefined selects nothing, `{}` everything (as in the API). */
export function selectorObjectRequirements(selector: LabelSelectorObject): LabelRequirement[] {
  const reqs: LabelRequirement[] = Object.entries(selector.matchLabels ?? {}).map(([key, value]) => ({ key, operator: 'In', values: [value] }));
  for (const expr of selector.matchExpressions ?? []) {
    if (!operators.has(expr.operator)) throw badRequest(`"${expr.operator}" is not a valid label selector operator; accepted: In, NotIn, Exists, DoesNotExist`);
    reqs.push({ key: expr.key, operator: expr.operator as LabelRequirement['operator'], values: expr.values ?? [] });
  }
  return reqs;
}

export function matchesSelectorObject(labels: Labels, selector: LabelSelectorObject | undefined | null): boolean {
  if (!selector) return true;
  return matchesAll(labels, selectorObjectRequirements(selector));
}
