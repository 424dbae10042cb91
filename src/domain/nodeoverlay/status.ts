/**
 * The status conditions of each NodeOverlay (upstream: ValidationSucceeded, and Ready from it): True when the
 * overlay is applied; False with reason Conflict (naming the other overlay, the field and the fix) or
 * RuntimeValidation when it is not. Pure: the resolution over every NodePool's instance types comes in.
 */
import { NodeOverlayConditionTypes } from '../../apis/v1alpha1/nodeoverlay.js';
import type { Condition } from '../../apis/v1/common.js';
import { setCondition } from '../provisioning/lifecycle.js';
import type { OverlayResolution } from './apply.js';
import { conflictMessage } from './conflict-message.js';

interface Verdict {
  status: 'True' | 'False';
  reason: string;
  message: string;
}

function verdictOf(name: string, resolution: OverlayResolution): Verdict {
  const invalid = resolution.invalid.get(name);
  if (invalid !== undefined) return { status: 'False', reason: 'RuntimeValidation', message: invalid };
  const conflict = resolution.conflicts.find((c) => c.overlay === name);
  if (conflict) return { status: 'False', reason: 'Conflict', message: conflictMessage(conflict) };
  return { status: 'True', reason: NodeOverlayConditionTypes.ValidationSucceeded, message: '' };
}

/** The overlay's conditions after this resolution; lastTransitionTime moves only when a status changes. */
export function nodeOverlayConditions(
  name: string,
  current: readonly Condition[] | undefined,
  resolution: OverlayResolution,
  now: number,
): Condition[] {
  const verdict = verdictOf(name, resolution);
  const validated = setCondition(current, { type: NodeOverlayConditionTypes.ValidationSucceeded, ...verdict }, now);
  const ready = verdict.status === 'True' ? { ...verdict, reason: NodeOverlayConditionTypes.Ready } : verdict;
  return setCondition(validated, { type: NodeOverlayConditionTypes.Ready, ...ready }, now);
}

/** Whether two condition lists say the same (times aside): the status is written only when they do not. */
export function conditionsDiffer(a: readonly Condition[] | undefined, b: readonly Condition[]): boolean {
  const key = (c: Condition): string => `${c.type}\u0000${c.status}\u0000${c.reason ?? ''}\u0000${c.message ?? ''}`;
  const left = (a ?? []).map(key).sort();
  const right = b.map(key).sort();
  return left.length !== right.length || left.some((k, i) => k !== right[i]);
}
