/**
 * Disruption budgets beyond what the schema's patterns catch: cron schedules with each field in range
 * (Karpenter parses them with robfig/cron, UTC), and a non-zero duration for every schedule.
 */
import { asArray, asRecord, asString, field } from '../object-access.js';
import { emptyFindings, type KubeObject, type RuleFindings } from '../types.js';

const cronFields = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] },
  { name: 'day of week', min: 0, max: 7, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
] as const;

const macros = ['@annually', '@yearly', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'];

function valueInRange(token: string, spec: (typeof cronFields)[number]): boolean {
  if (/^[0-9]+$/.test(token)) return Number(token) >= spec.min && Number(token) <= spec.max;
  return 'names' in spec && (spec.names as readonly string[]).includes(token.toLowerCase());
}

function cronFieldValid(text: string, spec: (typeof cronFields)[number]): boolean {
  return text.split(',').every((part) => {
    const [range, step, extra] = part.split('/');
    if (extra !== undefined || range === undefined || range === '') return false;
    if (step !== undefined && !/^[1-9][0-9]*$/.test(step)) return false;
    if (range === '*' || range === '?') return true;
    const [low, high, more] = range.split('-');
    if (more !== undefined || low === undefined) return false;
    if (!valueInRange(low, spec)) return false;
    return high === undefined || valueInRange(high, spec);
  });
}

/** Why a cron schedule is invalid, or undefined when it is valid. */
export function cronProblem(schedule: string): string | undefined {
  const trimmed = schedule.trim();
  if (trimmed.startsWith('@')) return macros.includes(trimmed) ? undefined : `unknown macro; accepted: ${macros.join(', ')}`;
  if (/^(CRON_)?TZ=/.test(trimmed)) return 'time zones are not supported (schedules are in UTC)';
  const parts = trimmed.split(/\s+/);
  if (parts.length !== 5) return `expected 5 fields (minute hour day-of-month month day-of-week), got ${parts.length}`;
  for (const [i, spec] of cronFields.entries()) {
    if (!cronFieldValid(parts[i] as string, spec)) return `the ${spec.name} field ${JSON.stringify(parts[i])} is out of range ${spec.min}-${spec.max} or malformed`;
  }
  return undefined;
}

export function checkDisruption(pool: KubeObject): RuleFindings {
  const findings = emptyFindings();
  asArray(field(pool, 'spec', 'disruption', 'budgets')).forEach((raw, i) => {
    const budget = asRecord(raw);
    const schedule = asString(budget?.schedule);
    const path = `spec.disruption.budgets[${i}]`;
    if (schedule !== undefined) {
      const problem = cronProblem(schedule);
      if (problem) findings.violations.push({ path: `${path}.schedule`, message: `Invalid value: ${JSON.stringify(schedule)}: ${problem}; e.g. "0 9 * * mon-fri" or "@daily"` });
    }
    const duration = asString(budget?.duration);
    if (duration !== undefined && /^0+(h|m)(0+m)?(0s)?$/.test(duration)) {
      findings.violations.push({ path: `${path}.duration`, message: `Invalid value: ${JSON.stringify(duration)}: a budget window must last longer than 0; e.g. "8h" or "30m"` });
    }
  });
  return findings;
}
