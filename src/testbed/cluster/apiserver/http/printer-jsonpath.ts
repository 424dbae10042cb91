/**
 * The JSONPath subset CRD printer columns use (kube-apiserver evaluates them with client-go's jsonpath):
 * field steps `.a.b`, indexes `[0]`, wildcards `[*]` and equality filters `[?(@.type=="Ready")]`.
 * A path it cannot read yields no value, which the table shows as `<none>` as kube-apiserver does.
 */
type Step = { field: string } | { index: number } | { all: true } | { filter: { path: string[]; value: string } };

function parse(path: string): Step[] {
  const steps: Step[] = [];
  const pattern = /\.([A-Za-z0-9_-]+)|\[(\d+)\]|\[\*\]|\[\?\(@((?:\.[A-Za-z0-9_-]+)+)\s*==\s*(?:"([^"]*)"|'([^']*)')\)\]/gy;
  let match: RegExpExecArray | null;
  let at = 0;
  while (at < path.length && (match = pattern.exec(path)) !== null) {
    at = pattern.lastIndex;
    if (match[1] !== undefined) steps.push({ field: match[1] });
    else if (match[2] !== undefined) steps.push({ index: Number(match[2]) });
    else if (match[3] !== undefined) steps.push({ filter: { path: match[3].slice(1).split('.'), value: match[4] ?? match[5] ?? '' } });
    else steps.push({ all: true });
  }
  return at === path.length ? steps : [];
}

function read(value: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((v, key) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined), value);
}

function step(values: unknown[], s: Step): unknown[] {
  return values.flatMap((v): unknown[] => {
    if ('field' in s)
      return typeof v === 'object' && v !== null && !Array.isArray(v) && (v as Record<string, unknown>)[s.field] !== undefined
        ? [(v as Record<string, unknown>)[s.field]]
        : [];
    if (!Array.isArray(v)) return [];
    if ('index' in s) return v[s.index] === undefined ? [] : [v[s.index]];
    if ('all' in s) return v;
    return v.filter((item) => String(read(item, s.filter.path)) === s.filter.value);
  });
}

/** Every value the path selects in the object (empty when none, or when the path is outside the subset). */
export function evaluateJsonPath(object: unknown, path: string): unknown[] {
  const steps = parse(path.trim().replace(/^\{(.*)\}$/, '$1'));
  if (steps.length === 0) return [];
  return steps.reduce<unknown[]>((values, s) => step(values, s), [object]);
}
