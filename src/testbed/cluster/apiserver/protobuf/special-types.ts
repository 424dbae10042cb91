/**
 * The apimachinery types whose JSON form is not their protobuf message: times, durations, quantities, int-or-string
 * and embedded raw JSON. Each converts between the JSON value kube-apiserver prints and the message fields
 * (as protobufjs plain objects) client-go puts on the wire.
 */

const meta = 'k8s.io.apimachinery.pkg.apis.meta.v1';

type Plain = Record<string, unknown>;

export interface SpecialType {
  toMessage(json: unknown): Plain;
  /** undefined: the Go zero value, which JSON prints as nothing (or null). */
  fromMessage(message: Plain): unknown;
}

function seconds(message: Plain): number {
  return Number(message.seconds ?? 0);
}

function rfc3339(ms: number, fractionDigits: 0 | 6): string {
  const iso = new Date(ms).toISOString();
  return fractionDigits === 0 ? `${iso.slice(0, 19)}Z` : `${iso.slice(0, 19)}.${iso.slice(20, 23)}${'0'.repeat(3)}Z`;
}

function timeToMessage(json: unknown, micro: boolean): Plain {
  const ms = Date.parse(String(json));
  if (Number.isNaN(ms)) throw new TypeError(`${JSON.stringify(json)} is not an RFC 3339 time`);
  const whole = Math.floor(ms / 1000);
  const fraction = /\.(\d{1,9})/.exec(String(json))?.[1] ?? '';
  const nanos = micro ? Number(fraction.padEnd(9, '0')) : 0;
  return { seconds: whole, nanos };
}

/** Go's time.Duration.String(): `1h2m3s`, `1.5s`, `250ms`, `0s`. */
export function formatGoDuration(nanoseconds: number): string {
  if (nanoseconds === 0) return '0s';
  const sign = nanoseconds < 0 ? '-' : '';
  let rest = Math.abs(nanoseconds);
  if (rest < 1e9) {
    const [unit, size] = rest < 1e3 ? ['ns', 1] : rest < 1e6 ? ['µs', 1e3] : ['ms', 1e6];
    return `${sign}${trimFraction(rest / size)}${unit}`;
  }
  const hours = Math.floor(rest / 3.6e12);
  rest -= hours * 3.6e12;
  const minutes = Math.floor(rest / 6e10);
  rest -= minutes * 6e10;
  const text = `${hours > 0 ? `${hours}h` : ''}${hours > 0 || minutes > 0 ? `${minutes}m` : ''}${trimFraction(rest / 1e9)}s`;
  return `${sign}${text}`;
}

function trimFraction(value: number): string {
  return value.toFixed(9).replace(/\.?0+$/, '');
}

const durationUnits: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, μs: 1e3, ms: 1e6, s: 1e9, m: 6e10, h: 3.6e12 };

/** Go's time.ParseDuration. */
export function parseGoDuration(text: string): number {
  const match = /^([-+]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/.exec(text);
  if (!match && text !== '0') throw new TypeError(`${JSON.stringify(text)} is not a Go duration such as 1h30m or 250ms`);
  let total = 0;
  for (const part of text.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g))
    total += Number(part[1]) * (durationUnits[part[2] ?? ''] ?? 0);
  return Math.round(match?.[1] === '-' ? -total : total);
}

function rawJson(json: unknown): Buffer {
  return Buffer.from(JSON.stringify(json), 'utf8');
}

function parseRaw(raw: unknown): unknown {
  const bytes = typeof raw === 'string' ? Buffer.from(raw, 'base64') : Buffer.from((raw as Uint8Array | undefined) ?? []);
  return bytes.length === 0 ? undefined : (JSON.parse(bytes.toString('utf8')) as unknown);
}

/** By the message's full name (without the leading dot). */
export const specialTypes: ReadonlyMap<string, SpecialType> = new Map<string, SpecialType>([
  [
    `${meta}.Time`,
    {
      toMessage: (json) => timeToMessage(json, false),
      fromMessage: (m) => (seconds(m) === 0 && !m.nanos ? undefined : rfc3339(seconds(m) * 1000, 0)),
    },
  ],
  [
    `${meta}.MicroTime`,
    {
      toMessage: (json) => timeToMessage(json, true),
      fromMessage: (m) => {
        if (seconds(m) === 0 && !m.nanos) return undefined;
        const micros = Math.floor(Number(m.nanos ?? 0) / 1000);
        return `${rfc3339(seconds(m) * 1000, 0).slice(0, 19)}.${String(micros).padStart(6, '0')}Z`;
      },
    },
  ],
  [
    `${meta}.Duration`,
    { toMessage: (json) => ({ duration: parseGoDuration(String(json)) }), fromMessage: (m) => formatGoDuration(Number(m.duration ?? 0)) },
  ],
  [
    'k8s.io.apimachinery.pkg.api.resource.Quantity',
    { toMessage: (json) => ({ string: String(json) }), fromMessage: (m) => (m.string === undefined ? '0' : m.string) },
  ],
  [
    'k8s.io.apimachinery.pkg.util.intstr.IntOrString',
    {
      toMessage: (json) => (typeof json === 'number' ? { type: 0, intVal: json } : { type: 1, strVal: String(json) }),
      fromMessage: (m) => (Number(m.type ?? 0) === 1 ? (m.strVal ?? '') : Number(m.intVal ?? 0)),
    },
  ],
  ['k8s.io.apimachinery.pkg.runtime.RawExtension', { toMessage: (json) => ({ raw: rawJson(json) }), fromMessage: (m) => parseRaw(m.raw) }],
  [`${meta}.FieldsV1`, { toMessage: (json) => ({ Raw: rawJson(json) }), fromMessage: (m) => parseRaw(m.Raw) }],
]);
