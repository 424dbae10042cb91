/**
 * Disruption budgets beyond what the schema's patterns catch: cron schedules the disruption controller can read
 * (the same parser, robfig/cron's dialect, UTC), and a non-zero duration for every schedule.
 */
import { InvalidCronError, parseCron } from '../../disruption/cron.js';
import { asArray, asRecord, asString, field } from '../object-access.js';
import { emptyFindings, type KubeObject, type RuleFindings } from '../types.js';

/** Why a cron schedule is invalid, or undefined when it is valid: the budgets' own parser decides. */
export function cronProblem(schedule: string): string | undefined {
  try {
    parseCron(schedule);
    return undefined;
  } catch (err) {
    if (err instanceof InvalidCronError) return `${err.detail}; accepted: ${err.accepted}`;
    throw err;
  }
}

export function checkDisruption(pool: KubeObject): RuleFindings {
  const findings = emptyFindings();
  asArray(field(pool, 'spec', 'disruption', 'budgets')).forEach((raw, i) => {
    const budget = asRecord(raw);
    const schedule = asString(budget?.schedule);
    const path = `spec.disruption.budgets[${i}]`;
    if (schedule !== undefined) {
      const problem = cronProblem(schedule);
      if (problem)
        findings.violations.push({
          path: `${path}.schedule`,
          message: `Invalid value: ${JSON.stringify(schedule)}: ${problem}; e.g. "0 9 * * mon-fri" or "@daily"`,
        });
    }
    const duration = asString(budget?.duration);
    if (duration !== undefined && /^0+(h|m)(0+m)?(0s)?$/.test(duration)) {
      findings.violations.push({
        path: `${path}.duration`,
        message: `Invalid value: ${JSON.stringify(duration)}: a budget window must last longer than 0; e.g. "8h" or "30m"`,
      });
    }
  });
  return findings;
}
