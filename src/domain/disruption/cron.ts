/**
 * Budget `schedule`s as upstream Karpenter reads them (robfig/cron's standard parser, UTC): 5 fields
 * "minute hour day-of-month month day-of-week" or a macro (@yearly, @annually, @monthly, @weekly, @daily,
 * @midnight, @hourly). Matching and the next hit come from croner; this file only narrows croner's wider dialect
 * (seconds and year fields, L, W, #, `?` as "now") to robfig's and keeps robfig's meanings where they differ:
 * `?` is `*`, `N/step` runs from N to the field's maximum, and day-of-month and day-of-week are ORed when both
 * are restricted (a stepped `*` such as `*\/10` counts as restricted, as robfig clears its star bit).
 */
import { Cron } from 'croner';

const ACCEPTED = '5 fields "minute hour day-of-month month day-of-week" (UTC) or @yearly, @monthly, @weekly, @daily, @hourly';

export class InvalidCronError extends Error {
  readonly accepted = ACCEPTED;
  constructor(
    readonly schedule: string,
    readonly detail: string,
  ) {
    super(`parsing budget schedule "${schedule}": ${detail}; accepted: ${ACCEPTED}`);
    this.name = 'InvalidCronError';
  }
}

/** A parsed schedule; opaque outside this file. */
export interface CronSchedule {
  readonly cron: Cron;
}

const macros: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};
const fields = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  { name: 'day-of-week', min: 0, max: 7 },
] as const;

// robfig's grammar: a list of `*` or value[-value], each with an optional /step; a value is a number or a
// three-letter month/day name. Anything else (L, W, #, H) is croner-only.
const value = '(?:\\d+|[a-z]{3})';
const item = `(?:\\*|${value}(?:-${value})?)(?:/\\d+)?`;
const robfigField = new RegExp(`^${item}(?:,${item})*$`, 'i');

// UTC offset rather than a zone name: no time-zone database lookups, and budget schedules are UTC only.
const options = { mode: '5-part', utcOffset: 0, domAndDow: false, sloppyRanges: true } as const;

function compile(pattern: string): Cron {
  return new Cron(pattern, options);
}

function cronMessage(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/^CronPattern: /, '');
}

/** Names the field croner refused: each field is compiled alone, the others left as `*`. */
function fieldProblem(parts: readonly string[]): string {
  for (const [i, text] of parts.entries()) {
    try {
      compile(parts.map((p, j) => (j === i ? p : '*')).join(' '));
    } catch (err) {
      return `"${text}" is not valid in the ${fields[i]?.name} field (${cronMessage(err)})`;
    }
  }
  return 'the fields do not combine into a schedule';
}

function robfigFields(schedule: string): string[] {
  const trimmed = schedule.trim();
  if (/^(CRON_)?TZ=/.test(trimmed)) throw new InvalidCronError(schedule, 'time zones are not supported (schedules are in UTC)');
  if (trimmed.startsWith('@') && macros[trimmed.toLowerCase()] === undefined)
    throw new InvalidCronError(schedule, `unknown macro "${trimmed}"`);
  const parts = (macros[trimmed.toLowerCase()] ?? trimmed).split(/\s+/).map((p) => p.replace(/\?/g, '*'));
  if (parts.length !== 5) throw new InvalidCronError(schedule, `found ${parts.length} fields`);
  parts.forEach((text, i) => checkField(schedule, text, fields[i] as (typeof fields)[number]));
  return parts;
}

/** The grammar, and numbers within the field's bounds (croner's own message does not name the bounds). */
function checkField(schedule: string, text: string, field: (typeof fields)[number]): void {
  if (!robfigField.test(text)) throw new InvalidCronError(schedule, `"${text}" is not valid in the ${field.name} field`);
  for (const item of text.split(',')) {
    const [range = ''] = item.split('/');
    for (const n of range
      .split('-')
      .filter((v) => /^\d+$/.test(v))
      .map(Number)) {
      if (n < field.min || n > field.max)
        throw new InvalidCronError(schedule, `${n} is out of range ${field.min}-${field.max} in the ${field.name} field`);
    }
  }
}

// croner fills a 10,000-entry year table for every pattern it compiles (~80 KB): at one parse per budget on every
// admission review and disruption pass, that garbage drove the webhook's GC pauses. A parsed schedule is
// immutable here (match and nextRun only read it; no job is ever scheduled), so each distinct schedule is parsed
// once. Bounded, so distinct schedules sent at the webhook cannot grow it without limit.
const parsed = new Map<string, CronSchedule>();
const PARSED_MAX = 256;

export function parseCron(schedule: string): CronSchedule {
  const known = parsed.get(schedule);
  if (known) return known;
  const parts = robfigFields(schedule);
  let result: CronSchedule;
  try {
    result = { cron: compile(parts.join(' ')) };
  } catch {
    throw new InvalidCronError(schedule, fieldProblem(parts));
  }
  if (parsed.size >= PARSED_MAX) parsed.clear();
  parsed.set(schedule, result);
  return result;
}

/** True when the minute starting at `epochMs` (floored to the minute) is a schedule hit. */
export function cronMatches(c: CronSchedule, epochMs: number): boolean {
  return c.cron.match(new Date(Math.floor(epochMs / 60_000) * 60_000));
}

/** The first hit strictly after `afterMs` (robfig/cron Next), or undefined when the schedule never fires. */
export function cronNext(c: CronSchedule, afterMs: number): number | undefined {
  return c.cron.nextRun(new Date(afterMs))?.getTime();
}

/** Upstream's activity test: a window opened by a hit within the last `durationMs` still covers `now`. */
export function cronWindowActive(c: CronSchedule, durationMs: number, now: number): boolean {
  const next = cronNext(c, now - durationMs);
  return next !== undefined && next <= now;
}
