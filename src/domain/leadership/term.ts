/**
 * Whether a replica may still write as the leader. A frozen or starved process wakes with its timers overdue
 * and its caches stale, and acts before its lease loop runs again; so the answer is computed from the time of
 * the last successful renewal against now on this process's own monotonic clock, never from a flag the lease
 * loop would have to clear in time. The renewal counts from when its attempt started (before the request was
 * sent), so the server saw it no earlier; another candidate takes over only a full lease duration after it
 * observed that renewal, and the renew deadline is shorter than the lease duration.
 */

export interface LeadershipTerm {
  /** Monotonic ms at which the last successful acquire or renew attempt started; unset before leading. */
  renewedAt?: number;
  /** Why the term ended (lease lost, stopping); once set, the term never resumes. */
  endedBecause?: string;
  /** The leader stops writing this long after its last renewal; unset when leader election is off. */
  renewDeadlineMs?: number;
  /** Leader election off: the term runs from the start until it ends. */
  unelected?: boolean;
}

export type WriteVerdict = { allowed: true } | { allowed: false; reason: string };

export function writeVerdict(term: LeadershipTerm, now: number): WriteVerdict {
  if (term.endedBecause !== undefined) return { allowed: false, reason: `leadership ended: ${term.endedBecause}` };
  if (term.unelected) return { allowed: true };
  if (term.renewedAt === undefined) return { allowed: false, reason: 'not leading' };
  const sinceRenewal = now - term.renewedAt;
  if (term.renewDeadlineMs !== undefined && sinceRenewal >= term.renewDeadlineMs) {
    return {
      allowed: false,
      reason: `the lease was last renewed ${Math.round(sinceRenewal)}ms ago, past the renew deadline of ${term.renewDeadlineMs}ms`,
    };
  }
  return { allowed: true };
}

/** A write refused because this replica may no longer act as the leader; nothing was sent. */
export class FencedWriteError extends Error {
  constructor(
    readonly action: string,
    readonly reason: string,
  ) {
    super(`${action}: refused, this replica may not write as the leader (${reason})`);
    this.name = 'FencedWriteError';
  }
}
