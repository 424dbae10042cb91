import type { ServerResponse } from 'node:http';
import { seededRandom } from '../../util/seeded-random.js';

/**
 * Fault injection shared by the three cloud emulators. Each emulator asks `decide()` before handling a
 * request and renders the returned fault in its own cloud's wire format (OVH `{class,message}`, Scaleway
 * `{type,message}`, Outscale `Errors[]`). Rules are matched in insertion order; the first that fires wins.
 * Randomness comes from a seeded generator so a failing test replays the same faults.
 */

export interface RequestInfo {
  method: string;
  /** Path without the query string. */
  path: string;
  /** Outscale action (`CreateVms`), or a logical name the emulator assigns (`createServer`, `scaleNodePool`). */
  action?: string;
  /** Flavor / commercial type / VM type the request wants to launch, when it launches something. */
  instanceType?: string;
  zone?: string;
}

export type Fault =
  /** A server error with this status (500, 502, 503…). */
  | { kind: 'server-error'; status: number }
  /** 429 with a Retry-After header in seconds. */
  | { kind: 'throttle'; retryAfterSeconds: number }
  /** The request is held and never answered (the socket is destroyed after `afterMs`). */
  | { kind: 'timeout'; afterMs: number }
  /** The request is answered normally after a delay. */
  | { kind: 'slow'; delayMs: number }
  /** The cloud has no stock of this flavor in this zone. */
  | { kind: 'out-of-stock' }
  /** The account's quota refuses the launch. */
  | { kind: 'quota-exceeded' }
  /** HTTP 200 with an empty body, as a broken proxy or gateway answers. The request itself is carried out. */
  | { kind: 'empty-body' }
  /** HTTP 200 with `{}`: valid JSON lacking every field the call must answer. The request is carried out. */
  | { kind: 'empty-object' }
  /** The real answer cut in the middle of its JSON (a connection closed early). */
  | { kind: 'truncated-body' }
  /**
   * The real answer with only the first `keep` entries (default 0) of its list; totals, tokens and headers
   * are left as they were, as a backend that lost part of a page would answer.
   */
  | { kind: 'short-page'; keep?: number }
  /** The cloud does what was asked, then the connection drops before the answer: the caller cannot know it happened. */
  | { kind: 'lost-reply' }
  /** The cloud does what was asked and answers 200 with this body instead of its own (an empty body or `{}`). */
  | { kind: 'empty-ok'; body: '' | '{}' }
  /** The cloud does what was asked and answers 200 with the first half of its own body. */
  | { kind: 'truncated-ok' }
  /**
   * Calls `run` at this request, for tests that act at an exact point of a caller's work (kill the caller).
   * `then: 'drop'`: the request is dropped unhandled once `run` settles (the caller died before the cloud acted);
   * `'answer'`: the cloud acts, `run` is awaited, then the answer is sent (the caller died waiting for it).
   */
  | { kind: 'hook'; then: 'drop' | 'answer'; run: (req: RequestInfo) => void | Promise<void> };

/** Faults that let the request run and spoil the body of its 200 answer. */
export type BodyFault = Extract<Fault, { kind: 'empty-body' | 'empty-object' | 'truncated-body' | 'short-page' }>;

export function isBodyFault(fault: Fault | undefined): fault is BodyFault {
  return fault?.kind === 'empty-body' || fault?.kind === 'empty-object' || fault?.kind === 'truncated-body' || fault?.kind === 'short-page';
}

/** The list a short page cuts: the body itself when it is an array, else its first array-valued field. */
function shortened(body: unknown, keep: number): unknown {
  if (Array.isArray(body)) return body.slice(0, keep);
  if (typeof body !== 'object' || body === null) return body;
  const entries = Object.entries(body as Record<string, unknown>);
  const listKey = entries.find(([, value]) => Array.isArray(value))?.[0];
  if (listKey === undefined) return body;
  return Object.fromEntries(entries.map(([key, value]) => [key, key === listKey ? (value as unknown[]).slice(0, keep) : value]));
}

/** The text a 200 answer carries under `fault`, given the JSON the handler answered. */
export function damagedBody(fault: BodyFault, body: unknown): string {
  switch (fault.kind) {
    case 'empty-body':
      return '';
    case 'empty-object':
      return '{}';
    case 'truncated-body': {
      const text = JSON.stringify(body ?? null);
      return text.slice(0, Math.max(1, Math.floor(text.length / 2)));
    }
    case 'short-page':
      return JSON.stringify(shortened(body, fault.keep ?? 0));
  }
}

/** Faults applied once the request has been handled: the cloud acted, its answer is spoiled or held. */
export type ReplyFault = Extract<Fault, { kind: 'lost-reply' | 'empty-ok' | 'truncated-ok' | 'hook' }>;

export function isReplyFault(fault: Fault): fault is ReplyFault {
  return (
    fault.kind === 'lost-reply' ||
    fault.kind === 'empty-ok' ||
    fault.kind === 'truncated-ok' ||
    (fault.kind === 'hook' && fault.then === 'answer')
  );
}

/** What to send once a reply fault has fired: the payload as the handler made it, another one, or nothing. */
export type ReplyOutcome = { send: 'as-is' } | { send: 'none' } | { send: 'replaced'; status: number; payload: string };

/**
 * Applies a reply fault to a handled request. Error answers pass unspoiled (only a success can be emptied or
 * cut); a hook runs whatever the answer.
 */
export async function applyReplyFault(fault: ReplyFault, req: RequestInfo, status: number, payload: string): Promise<ReplyOutcome> {
  switch (fault.kind) {
    case 'hook':
      await fault.run(req);
      return { send: 'as-is' };
    case 'lost-reply':
      return { send: 'none' };
    case 'empty-ok':
      return status >= 300 ? { send: 'as-is' } : { send: 'replaced', status: 200, payload: fault.body };
    case 'truncated-ok':
      return status >= 300
        ? { send: 'as-is' }
        : { send: 'replaced', status: 200, payload: payload.slice(0, Math.floor(payload.length / 2)) };
  }
}

export interface FaultRule {
  /** Every given field must match; `path` may be a RegExp. */
  match?: { method?: string; path?: string | RegExp; action?: string; instanceType?: string; zone?: string };
  fault: Fault;
  /** Chance in [0,1] that a matching request gets the fault (default 1). */
  probability?: number;
  /** How many times the rule may still fire (default unlimited). */
  times?: number;
  /** Matching requests let through untouched before the rule starts firing (default 0). */
  after?: number;
  /** With `after`: only requests matching this count towards it (the others pass untouched meanwhile). */
  counting?: FaultRule['match'];
}

/**
 * "The process died after its `calls`-th call" (of those matching `counting`, when given): every request
 * after it is dropped unanswered and never handled, as if its sender were gone (tests of a create resumed
 * by a restarted process).
 */
export function haltAfter(calls: number, counting?: FaultRule['match']): FaultRule {
  return { fault: { kind: 'timeout', afterMs: 0 }, after: calls, ...(counting ? { counting } : {}) };
}

export interface CallRecord {
  at: number;
  method: string;
  path: string;
  action?: string;
  status: number;
  fault?: Fault['kind'];
}

/** Kinds a request-level fault can have before the handler runs (the rest act on the answer). */
export function isDropHook(fault: Fault): fault is Extract<Fault, { kind: 'hook' }> {
  return fault.kind === 'hook' && fault.then === 'drop';
}

function matches(m: FaultRule['match'], req: RequestInfo): boolean {
  if (!m) return true;
  if (m.method && m.method.toUpperCase() !== req.method.toUpperCase()) return false;
  if (m.action && m.action !== req.action) return false;
  if (m.instanceType && m.instanceType !== req.instanceType) return false;
  if (m.zone && m.zone !== req.zone) return false;
  if (m.path instanceof RegExp) return m.path.test(req.path);
  if (typeof m.path === 'string') return m.path === req.path;
  return true;
}

/** Called at the arrival of every matching request, before any fault is decided (the cloud has not acted yet). */
export type RequestWatcher = (req: RequestInfo) => void;

export class FaultInjector {
  private rules: { id: number; rule: FaultRule; remaining: number; skip: number }[] = [];
  private watchers: { id: number; match: FaultRule['match']; watcher: RequestWatcher }[] = [];
  private nextId = 1;
  private random: () => number;

  constructor(seed = 42) {
    this.random = seededRandom(seed);
  }

  /** Adds a rule and returns its id (for `remove`). */
  add(rule: FaultRule): number {
    const id = this.nextId++;
    this.rules.push({ id, rule, remaining: rule.times ?? Number.POSITIVE_INFINITY, skip: rule.after ?? 0 });
    return id;
  }

  remove(id: number): void {
    this.rules = this.rules.filter((r) => r.id !== id);
    this.watchers = this.watchers.filter((w) => w.id !== id);
  }

  /** Adds a watcher (it never changes the answer) and returns its id (for `remove`). */
  watch(match: FaultRule['match'], watcher: RequestWatcher): number {
    const id = this.nextId++;
    this.watchers.push({ id, match, watcher });
    return id;
  }

  clear(): void {
    this.rules = [];
  }

  reseed(seed: number): void {
    this.random = seededRandom(seed);
  }

  /**
   * The fault to apply to this request, if any. Capacity faults (out-of-stock, quota) only fire for
   * requests that launch something (`instanceType` set), so a rule scoped to a flavor never breaks reads.
   */
  decide(req: RequestInfo): Fault | undefined {
    for (const w of this.watchers) if (matches(w.match, req)) w.watcher(req);
    for (const entry of this.rules) {
      if (entry.remaining <= 0 || !matches(entry.rule.match, req)) continue;
      const capacity = entry.rule.fault.kind === 'out-of-stock' || entry.rule.fault.kind === 'quota-exceeded';
      if (capacity && !req.instanceType) continue;
      if (entry.skip > 0) {
        if (matches(entry.rule.counting, req)) entry.skip -= 1;
        continue;
      }
      if (this.random() >= (entry.rule.probability ?? 1)) continue;
      entry.remaining -= 1;
      return entry.rule.fault;
    }
    return undefined;
  }
}

/** Writes a spoiled answer as JSON, whatever the cloud's own replies look like. */
export function writeSpoiled(res: ServerResponse, status: number, payload: string): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(payload)) });
  res.end(payload);
}

/** Append-only log of what an emulator answered, for tests that assert on the wire traffic. */
export class CallLog {
  readonly records: CallRecord[] = [];

  add(record: CallRecord): void {
    this.records.push(record);
  }

  count(filter: { method?: string; action?: string; path?: string | RegExp } = {}): number {
    return this.records.filter((r) => {
      if (filter.method && r.method !== filter.method) return false;
      if (filter.action && r.action !== filter.action) return false;
      if (filter.path instanceof RegExp && !filter.path.test(r.path)) return false;
      if (typeof filter.path === 'string' && r.path !== filter.path) return false;
      return true;
    }).length;
  }

  clear(): void {
    this.records.length = 0;
  }
}
