/**
 * A small 5-field cron matcher (minute hour day-of-month month day-of-week, UTC) for budget `schedule`s, with
 * the macros robfig/cron accepts (@yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly).
 * Day-of-month and day-of-week follow Vixie cron: when both are restricted, either may match.
 */
export class InvalidCronError extends Error {
  constructor(readonly schedule: string, detail: string) {
    super(`parsing budget schedule "${schedule}": ${detail}; accepted: 5 fields "minute hour day-of-month month day-of-week" (UTC) or @yearly, @monthly, @weekly, @daily, @hourly`);
    this.name = 'InvalidCronError';
  }
}

export interface CronSchedule {
  minutes: ReadonlySet<number>;
  hours: ReadonlySet<number>;
  daysOfMonth: ReadonlySet<number>;
  months: ReadonlySet<number>;
  daysOfWeek: ReadonlySet<number>;
  domRestricted: boolean;
  dowRestricted: boolean;
}

const macros: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *', '@annually': '0 0 1 1 *', '@monthly': '0 0 1 * *', '@weekly': '0 0 * * 0', '@daily': '0 0 * * *', '@midnight': '0 0 * * *', '@hourly': '0 * * * *',
};
const monthNames = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const dayNames = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

interface FieldSpec { name: string; min: number; max: number; names?: string[]; namesBase?: number }
const fields: readonly FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: monthNames, namesBase: 1 },
  { name: 'day-of-week', min: 0, max: 7, names: dayNames, namesBase: 0 },
];

function parseValue(schedule: string, spec: FieldSpec, text: string): number {
  const named = spec.names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return named + (spec.namesBase ?? 0);
  if (!/^\d+$/.test(text)) throw new InvalidCronError(schedule, `"${text}" is not a number in the ${spec.name} field`);
  const n = Number(text);
  if (n < spec.min || n > spec.max) throw new InvalidCronError(schedule, `${n} is out of range ${spec.min}-${spec.max} in the ${spec.name} field`);
  return n;
}

function parseField(schedule: string, spec: FieldSpec, text: string): Set<number> {
  const out = new Set<number>();
  for (const item of text.split(',')) {
    const [rangeText, stepText, extra] = item.split('/');
    if (extra !== undefined || rangeText === undefined || rangeText === '') throw new InvalidCronError(schedule, `"${item}" is not valid in the ${spec.name} field`);
    const step = stepText === undefined ? 1 : parseValue(schedule, { ...spec, min: 1, max: 1000, names: undefined }, stepText);
    let lo: number;
    let hi: number;
    if (rangeText === '*' || rangeText === '?') [lo, hi] = [spec.min, spec.max];
    else if (rangeText.includes('-')) {
      const [a, b] = rangeText.split('-');
      lo = parseValue(schedule, spec, a ?? '');
      hi = parseValue(schedule, spec, b ?? '');
      if (lo > hi) throw new InvalidCronError(schedule, `range "${rangeText}" runs backwards in the ${spec.name} field`);
    } else {
      lo = parseValue(schedule, spec, rangeText);
      hi = stepText === undefined ? lo : spec.max;
    }
    for (let v = lo; v <= hi; v += step) out.add(spec.name === 'day-of-week' && v === 7 ? 0 : v);
  }
  return out;
}

export function parseCron(schedule: string): CronSchedule {
  const expanded = macros[schedule.trim().toLowerCase()] ?? schedule.trim();
  const parts = expanded.split(/\s+/);
  if (parts.length !== 5) throw new InvalidCronError(schedule, `found ${parts.length} fields`);
  const [minutes, hours, daysOfMonth, months, daysOfWeek] = parts.map((p, i) => parseField(schedule, fields[i] as FieldSpec, p)) as Set<number>[];
  return {
    minutes: minutes as Set<number>, hours: hours as Set<number>, daysOfMonth: daysOfMonth as Set<number>, months: months as Set<number>, daysOfWeek: daysOfWeek as Set<number>,
    domRestricted: !(parts[2] as string).startsWith('*') && parts[2] !== '?',
    dowRestricted: !(parts[4] as string).startsWith('*') && parts[4] !== '?',
  };
}

function dayMatches(c: CronSchedule, d: Date): boolean {
  const dom = c.daysOfMonth.has(d.getUTCDate());
  const dow = c.daysOfWeek.has(d.getUTCDay());
  if (c.domRestricted && c.dowRestricted) return dom || dow;
  return dom && dow;
}

/** True when the minute starting at `epochMs` (floored to the minute) is a schedule hit. */
export function cronMatches(c: CronSchedule, epochMs: number): boolean {
  const d = new Date(Math.floor(epochMs / 60_000) * 60_000);
  return c.months.has(d.getUTCMonth() + 1) && dayMatches(c, d) && c.hours.has(d.getUTCHours()) && c.minutes.has(d.getUTCMinutes());
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Schedules that never fire (e.g. `0 0 31 2 *`) stop the search after this long. */
const SEARCH_LIMIT_MS = 5 * 366 * 24 * HOUR;

/** The first hit strictly after `afterMs` (robfig/cron Next), or undefined when none within 5 years. */
export function cronNext(c: CronSchedule, afterMs: number): number | undefined {
  let t = Math.floor(afterMs / MINUTE) * MINUTE + MINUTE;
  const limit = afterMs + SEARCH_LIMIT_MS;
  while (t <= limit) {
    const d = new Date(t);
    if (!c.months.has(d.getUTCMonth() + 1) || !dayMatches(c, d)) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
    } else if (!c.hours.has(d.getUTCHours())) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours() + 1);
    } else if (!c.minutes.has(d.getUTCMinutes())) {
      t += MINUTE;
    } else return t;
  }
  return undefined;
}

/** Upstream's activity test: a window opened by a hit within the last `durationMs` still covers `now`. */
export function cronWindowActive(c: CronSchedule, durationMs: number, now: number): boolean {
  const next = cronNext(c, now - durationMs);
  return next !== undefined && next <= now;
}
