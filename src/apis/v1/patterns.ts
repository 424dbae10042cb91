/** Regular expressions of the karpenter.sh/v1 schema, as upstream's CRDs spell them (Go RE2 syntax that JS shares). */
import { isBudgetSchedule } from './budget-schedule.js';

/** A qualified name: optional DNS-subdomain prefix and `/`, then a name (label keys, taint keys/values). */
export const QualifiedNamePattern =
  '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\\/))?([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$';

/** A label value (may be empty). */
export const LabelValuePattern = '^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$';

/** A duration in s/m/h units, or `Never` (NillableDuration). */
export const NillableDurationPattern = '^(([0-9]+(s|m|h))+|Never)$';

/** A duration in s/m/h units. */
export const DurationPattern = '^([0-9]+(s|m|h))+$';

/** Budget duration: minutes and hours only (cron has no seconds); Go's Duration.String() appends `0s`. */
export const BudgetDurationPattern = '^((([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?)$';

/** Budget nodes: a percentage 0–100% or a non-negative integer. */
export const BudgetNodesPattern = '^((100|[0-9]{1,2})%|[0-9]+)$';

/** Budget schedule: a cron macro or five space-separated fields. */
export const BudgetSchedulePattern = '^(@(annually|yearly|monthly|weekly|daily|midnight|hourly))|((.+)\\s(.+)\\s(.+)\\s(.+)\\s(.+))$';

/** metav1.Condition type and reason. */
export const ConditionTypePattern =
  '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$';
export const ConditionReasonPattern = '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$';
/** NodeClaim's status conditions accept an empty reason (their schema is generated from a different Go type). */
export const ConditionReasonOrEmptyPattern = '^([A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?|)$';

/**
 * Patterns a backtracking engine cannot run in linear time, with a matcher for the same strings that can.
 * Validation uses these instead of compiling the pattern; the CRDs keep upstream's pattern for RE2.
 */
export const LinearPatternMatchers: ReadonlyMap<string, (value: string) => boolean> = new Map([[BudgetSchedulePattern, isBudgetSchedule]]);
