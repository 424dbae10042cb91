/**
 * The JSONPath of CRD printer columns, read as kube-apiserver reads it (client-go's jsonpath), evaluated by
 * jsonpath-plus. client-go's dialect differs in two ways that matter here: a backslash escapes the next
 * character of a field name (`.metadata.labels.node\.kubernetes\.io/instance-type`), and `{…}` may wrap the
 * path. Fields become bracketed names for jsonpath-plus, so dots and slashes in keys stay in the key.
 * A path it cannot read yields no value, which the table shows as `<none>` as kube-apiserver does.
 */
import { JSONPath } from 'jsonpath-plus';

/** Characters jsonpath-plus cannot carry inside a bracketed name; no label or field key uses them. */
const unsafeInName = /['\];^@#%`]/;

class Unsupported extends Error {}

/** Reads a field name from `at`, undoing client-go's backslash escapes; returns the name and where it ends. */
function fieldName(path: string, at: number): { name: string; end: number } {
  let name = '';
  let i = at;
  while (i < path.length && !'.[]{}() ,'.includes(path[i] ?? '')) {
    if (path[i] === '\\' && i + 1 < path.length) i++;
    name += path[i];
    i++;
  }
  return { name, end: i };
}

function bracketed(name: string): string {
  if (name === '*') return '[*]';
  if (unsafeInName.test(name)) throw new Unsupported(name);
  return `['${name}']`;
}

/** `@.a.b\.c == "x"` → `@['a']['b.c'] == "x"`: the filter's own paths get the same field reading. */
function filterExpression(body: string): string {
  return body.replace(/@((?:\.(?:\\.|[^.\s=!<>&|()[\]])+)+)/g, (_whole, fields: string) => {
    let out = '@';
    for (let at = 0; at < fields.length;) {
      const { name, end } = fieldName(fields, at + 1);
      out += bracketed(name);
      at = end;
    }
    return out;
  });
}

/** `[…]` at `at`: an index, slice, wildcard, quoted names or a filter; returns its jsonpath-plus form. */
function bracket(path: string, at: number): { text: string; end: number } {
  if (path.startsWith('[?(', at)) {
    const close = path.indexOf(')]', at);
    if (close < 0) throw new Unsupported(path);
    return { text: `[?(${filterExpression(path.slice(at + 3, close))})]`, end: close + 2 };
  }
  const close = path.indexOf(']', at);
  if (close < 0) throw new Unsupported(path);
  const inner = path.slice(at + 1, close).trim();
  if (/^-\d+$/.test(inner)) return { text: `[${inner}:${Number(inner) + 1 === 0 ? '' : Number(inner) + 1}]`, end: close + 1 };
  if (/^(\*|-?\d*(:-?\d*){0,2})$/.test(inner)) return { text: `[${inner}]`, end: close + 1 };
  const names = /^'[^']*'(\s*,\s*'[^']*')*$/.test(inner) ? inner.split(',').map((n) => n.trim().slice(1, -1)) : undefined;
  if (!names || names.length !== 1) throw new Unsupported(inner);
  return { text: bracketed(names[0] ?? ''), end: close + 1 };
}

/** client-go's path (without `{}`) as a jsonpath-plus path. */
export function toJsonPathPlus(kubectlPath: string): string {
  const path = kubectlPath
    .trim()
    .replace(/^\{(.*)\}$/s, '$1')
    .trim();
  let out = '$';
  let at = path.startsWith('$') ? 1 : 0;
  while (at < path.length) {
    if (path.startsWith('..', at)) {
      const { name, end } = fieldName(path, at + 2);
      out += `..${bracketed(name)}`;
      at = end;
    } else if (path[at] === '.') {
      const { name, end } = fieldName(path, at + 1);
      if (name === '') throw new Unsupported(path);
      out += bracketed(name);
      at = end;
    } else if (path[at] === '[') {
      const { text, end } = bracket(path, at);
      out += text;
      at = end;
    } else {
      throw new Unsupported(path);
    }
  }
  return out;
}

/** Every value the path selects in the object (empty when none, or when the path is outside what is read). */
export function evaluateJsonPath(object: unknown, path: string): unknown[] {
  let converted: string;
  try {
    converted = toJsonPathPlus(path);
  } catch (err) {
    if (err instanceof Unsupported) return [];
    throw err;
  }
  const found = JSONPath({ path: converted, json: object as object, wrap: true, eval: 'safe' }) as unknown[] | undefined;
  return (found ?? []).filter((v) => v !== undefined);
}
