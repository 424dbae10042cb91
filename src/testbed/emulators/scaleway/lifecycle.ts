/**
 * Server power states, derived lazily from the clock: an action records when it started and when it
 * completes, and every read settles the states that are due. No timers, so FakeClock drives everything.
 * Real sequence: stopped → poweron → starting ("allocating node") → running; running → poweroff →
 * stopping → stopped; terminate = stopping, then the server disappears.
 */
import type { ServerAction, ServerRecord, ServerState } from './records.js';

export interface LifecycleTimings {
  /** Time spent in `starting` after poweron. */
  startingMs: number;
  /** Time spent in `stopping` after poweroff or terminate. */
  stoppingMs: number;
  /** Time a reboot keeps the server in `running` / "rebooting". */
  rebootMs: number;
}

export const DEFAULT_TIMINGS: LifecycleTimings = { startingMs: 10_000, stoppingMs: 5_000, rebootMs: 10_000 };

/** What the API lists in `allowed_actions` for each state (transient states allow nothing). */
export function allowedActions(state: ServerState): ServerAction[] {
  switch (state) {
    case 'stopped':
      return ['poweron', 'backup'];
    case 'stopped in place':
      return ['poweron', 'poweroff', 'backup'];
    case 'running':
      return ['poweroff', 'terminate', 'reboot', 'stop_in_place', 'backup', 'enable_routed_ip'];
    default:
      return [];
  }
}

export function isTransient(state: ServerState): boolean {
  return state === 'starting' || state === 'stopping';
}

/** The outcome of settling a server at `now`: still here, or terminated (to be removed with its volumes). */
export type SettleOutcome = 'present' | 'terminated';

export function settleServer(server: ServerRecord, now: number): SettleOutcome {
  const t = server.transition;
  if (!t) return 'present';
  if (now < t.completesAt) return 'present';
  server.transition = undefined;
  server.modifiedAt = t.completesAt;
  switch (t.action) {
    case 'poweron':
    case 'reboot':
      server.state = 'running';
      server.stateDetail = 'booted';
      return 'present';
    case 'poweroff':
      server.state = 'stopped';
      server.stateDetail = '';
      return 'present';
    case 'terminate':
      return 'terminated';
  }
}

/** Starts an already-validated action (the caller checked `allowedActions`). */
export function beginAction(
  server: ServerRecord,
  action: 'poweron' | 'poweroff' | 'reboot' | 'terminate' | 'stop_in_place',
  now: number,
  timings: LifecycleTimings,
  taskId: string,
): number {
  server.modifiedAt = now;
  if (action === 'stop_in_place') {
    server.state = 'stopped in place';
    server.stateDetail = 'stopped in place';
    return now;
  }
  const duration = action === 'poweron' ? timings.startingMs : action === 'reboot' ? timings.rebootMs : timings.stoppingMs;
  server.transition = { action, startedAt: now, completesAt: now + duration, taskId };
  if (action === 'poweron') {
    server.state = 'starting';
    server.stateDetail = 'allocating node';
  } else if (action === 'reboot') {
    server.state = 'running';
    server.stateDetail = 'rebooting';
  } else {
    server.state = 'stopping';
    server.stateDetail = action === 'terminate' ? 'terminating' : 'stopping';
  }
  return now + duration;
}
