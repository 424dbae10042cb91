/**
 * Label selectors in both forms kube-apiserver accepts: the query-string syntax
 * (`a=b,c!=d,e in (x,y),f notin (z),g,!h`, parsed as labels.Parse does) and the metav1.LabelSelector object
 * (matchLabels/matchExpressions). Matching is the domain's, the one the product uses; a malformed selector is a 400.
 */
import { CompiledLabelSelector, type LabelSelector, LabelSelectorError } from '../../../domain/requirements/index.js';
import { badRequest } from './errors.js';
import { parseLabelSelector } from './label-selector-parse.js';

export type Labels = Record<string, string> | undefined;
export type LabelSelectorObject = LabelSelector;

function compiled(build: () => CompiledLabelSelector): CompiledLabelSelector {
  try {
    return build();
  } catch (error) {
    if (error instanceof LabelSelectorError) throw badRequest(error.message);
    throw error;
  }
}

/** The `labelSelector` query parameter; absent or empty selects everything. */
export function labelSelectorQuery(selector: string | undefined | null): CompiledLabelSelector {
  return compiled(() => CompiledLabelSelector.compile(parseLabelSelector(selector ?? '')));
}

/** A selector object as webhooks' namespace/object selectors read it: absent selects everything. */
export function matchesSelectorObject(labels: Labels, selector: LabelSelectorObject | undefined | null): boolean {
  if (!selector) return true;
  return compiled(() => CompiledLabelSelector.compile(selector)).matches(labels);
}

/** metav1.LabelSelectorAsSelector(...).String(): requirements sorted by key, values sorted; empty selects all. */
export function formatSelector(selector: unknown): string {
  const s = (selector ?? {}) as {
    matchLabels?: Record<string, string>;
    matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
  };
  const parts: Array<[string, string]> = Object.entries(s.matchLabels ?? {}).map(([k, v]) => [k, `${k}=${v}`]);
  for (const e of s.matchExpressions ?? []) {
    const values = [...(e.values ?? [])].sort().join(',');
    const forms: Record<string, string> = {
      In: `${e.key} in (${values})`,
      NotIn: `${e.key} notin (${values})`,
      Exists: e.key,
      DoesNotExist: `!${e.key}`,
    };
    parts.push([e.key, forms[e.operator] ?? e.key]);
  }
  parts.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return parts.map(([, p]) => p).join(',');
}
