/**
 * Go-style durations as the NodePool API writes them (`consolidateAfter`, `expireAfter`, budget `duration`):
 * `30s`, `10m`, `1h30m`, `720h`, and `Never` where the field allows it.
 */
const unitMs: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const part = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;

export class InvalidDurationError extends Error {
  constructor(
    readonly field: string,
    readonly value: string,
  ) {
    super(
      `parsing ${field}: "${value}" is not a duration; accepted: a Go duration such as 30s, 10m, 1h30m, 720h${field === 'duration' ? '' : ' or Never'}`,
    );
    this.name = 'InvalidDurationError';
  }
}

/** Milliseconds, or `undefined` for `Never`. Throws InvalidDurationError otherwise. */
export function parseNillableDurationMs(field: string, value: string): number | undefined {
  if (value === 'Never') return undefined;
  return parseDurationMs(field, value);
}

export function parseDurationMs(field: string, value: string): number {
  const text = value.trim();
  if (text === '0') return 0;
  part.lastIndex = 0;
  let total = 0;
  let consumed = 0;
  for (let m = part.exec(text); m; m = part.exec(text)) {
    total += Number(m[1]) * (unitMs[m[2] as string] as number);
    consumed = part.lastIndex;
  }
  if (text === '' || consumed !== text.length) throw new InvalidDurationError(field, value);
  return Math.round(total);
}
