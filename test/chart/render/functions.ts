/**
 * The functions the chart may call: Go's builtins and the Sprig/Helm ones in the supported subset. `include`
 * and `fail`/`required` positions are handled by the evaluator; `and`/`or` short-circuit there too.
 */
import YAML from 'yaml';
import { createCertificateAuthority, type CertificateAuthority } from '../../../src/util/tls.js';
import { FunctionError } from './errors.js';
import { formatValue, isMap, isTruthy, type Value } from './values.js';

export type TemplateFunction = (...args: Value[]) => Value | Promise<Value>;

/** What genCA returns: Helm's `.Cert` and `.Key`, plus the authority that genSignedCert signs with. */
interface GeneratedCa {
  Cert: string;
  Key: string;
  authority: CertificateAuthority;
}

function toNumber(value: Value, fn: string): number {
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || Number.isNaN(n)) throw new FunctionError(`${fn}: expected a number, got ${JSON.stringify(value)}`);
  return n;
}

function stringList(value: Value, fn: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new FunctionError(`${fn}: expected a list, got ${formatValue(value)}`);
  return value.map(formatValue);
}

/** Go's fmt verbs the charts use: %s %v %d %q %%. */
function sprintf(format: string, args: Value[]): string {
  let next = 0;
  return format.replace(/%([svdq%])/g, (_, verb: string) => {
    if (verb === '%') return '%';
    if (next >= args.length) return `%!${verb}(MISSING)`;
    const arg = args[next++];
    if (verb === 'q') return JSON.stringify(formatValue(arg));
    if (verb === 'd') return String(Math.trunc(toNumber(arg, 'printf')));
    return formatValue(arg);
  });
}

function indentLines(spaces: Value, text: Value): string {
  const pad = ' '.repeat(toNumber(spaces, 'indent'));
  return formatValue(text)
    .split('\n')
    .map((line) => pad + line)
    .join('\n');
}

/** Go's eq: basic values compare by value; with several right-hand values, true when any is equal. */
function equal(a: Value, b: Value): boolean {
  const norm = (v: Value): Value => (v === undefined ? null : v);
  const [x, y] = [norm(a), norm(b)];
  if ((x !== null && typeof x === 'object') || (y !== null && typeof y === 'object')) {
    throw new FunctionError('eq: incompatible types for comparison (lists and maps cannot be compared)');
  }
  return x === y;
}

function isEmpty(value: Value): boolean {
  return !isTruthy(value);
}

function index(collection: Value, ...keys: Value[]): Value {
  let current = collection;
  for (const key of keys) {
    if (Array.isArray(current)) {
      const i = toNumber(key, 'index');
      if (i < 0 || i >= current.length) throw new FunctionError(`index: index out of range: ${i}`);
      current = current[i];
    } else if (isMap(current)) current = current[formatValue(key)];
    else if (current === undefined || current === null) return undefined;
    else throw new FunctionError(`index: can't index item of type ${typeof current}`);
  }
  return current;
}

async function genCA(commonName: Value, days: Value): Promise<GeneratedCa> {
  const authority = await createCertificateAuthority(formatValue(commonName), toNumber(days, 'genCA'));
  return { Cert: authority.certPem, Key: authority.keyPem, authority };
}

async function genSignedCert(commonName: Value, ips: Value, dnsNames: Value, days: Value, ca: Value): Promise<{ Cert: string; Key: string }> {
  if (!isMap(ca) || !('authority' in ca)) throw new FunctionError('genSignedCert: the fifth argument must be the result of genCA');
  const dns = [formatValue(commonName), ...stringList(dnsNames, 'genSignedCert')].filter((n, i, all) => n !== '' && all.indexOf(n) === i);
  const cert = await (ca as unknown as GeneratedCa).authority.issue({ dns, ips: stringList(ips, 'genSignedCert') }, toNumber(days, 'genSignedCert'));
  return { Cert: cert.certPem, Key: cert.keyPem };
}

export const templateFunctions: Readonly<Record<string, TemplateFunction>> = {
  // Go builtins
  eq: (a, ...bs) => {
    if (bs.length === 0) throw new FunctionError('eq: missing argument for comparison');
    return bs.some((b) => equal(a, b));
  },
  ne: (a, b) => !equal(a, b),
  not: (v) => !isTruthy(v),
  len: (v) => (Array.isArray(v) || typeof v === 'string' ? v.length : isMap(v) ? Object.keys(v).length : 0),
  index,
  print: (...args) => args.map(formatValue).join(''),
  printf: (format, ...args) => sprintf(formatValue(format), args),
  // Sprig / Helm
  default: (fallback, ...given) => (given.length === 0 || isEmpty(given[0]) ? fallback : given[0]),
  empty: isEmpty,
  list: (...items) => items,
  quote: (...args) => args.filter((a) => a !== undefined && a !== null).map((a) => JSON.stringify(formatValue(a))).join(' '),
  squote: (...args) => args.filter((a) => a !== undefined && a !== null).map((a) => `'${formatValue(a)}'`).join(' '),
  toString: (v: Value) => formatValue(v),
  int: (v) => Math.trunc(toNumber(v ?? 0, 'int')),
  b64enc: (v) => Buffer.from(formatValue(v), 'utf8').toString('base64'),
  b64dec: (v) => Buffer.from(formatValue(v), 'base64').toString('utf8'),
  contains: (substring, text) => formatValue(text).includes(formatValue(substring)),
  trunc: (n, text) => {
    const s = formatValue(text);
    const count = toNumber(n, 'trunc');
    return count >= 0 ? s.slice(0, count) : s.slice(Math.max(0, s.length + count));
  },
  trimSuffix: (suffix, text) => {
    const [s, x] = [formatValue(text), formatValue(suffix)];
    return x !== '' && s.endsWith(x) ? s.slice(0, -x.length) : s;
  },
  lower: (v) => formatValue(v).toLowerCase(),
  upper: (v) => formatValue(v).toUpperCase(),
  toYaml: (v) => (v === undefined || v === null ? 'null' : YAML.stringify(v, { sortMapEntries: true, lineWidth: 0 }).replace(/\n$/, '')),
  indent: indentLines,
  nindent: (spaces, text) => `\n${indentLines(spaces, text)}`,
  required: (message, ...given) => {
    const v = given[0];
    if (v === undefined || v === null || v === '') throw new FunctionError(formatValue(message), true);
    return v;
  },
  fail: (message) => {
    throw new FunctionError(formatValue(message), true);
  },
  genCA,
  genSignedCert,
};

/** Names the parser accepts: the table above plus the ones the evaluator implements itself. */
export const knownFunctionNames: ReadonlySet<string> = new Set([...Object.keys(templateFunctions), 'include', 'and', 'or']);
