/**
 * Errors of the Outscale client. An `OutscaleApiError` carries what the API said (`Errors[]` + RequestId);
 * an `OutscaleTransportError` says the API never answered (timeout, connection refused/reset). The helpers
 * classify by the OAPI code families (osc-sdk-python `resources/gateway_errors.yaml`): 5xxx InvalidResource
 * (not found), 10xxx TooManyResources (quota), capacity, throttling, 5xx.
 */
import type { ApiErrorEntry } from './api-types.js';

export class OutscaleApiError extends Error {
  readonly status: number;
  readonly action: string;
  readonly errors: readonly ApiErrorEntry[];
  readonly requestId?: string;
  /** Retry-After in milliseconds, when the API sent one. */
  readonly retryAfterMs?: number;

  constructor(init: { action: string; status: number; errors: ApiErrorEntry[]; requestId?: string; retryAfterMs?: number }) {
    const first = init.errors[0];
    const what = first ? `${first.Type} (code ${first.Code})${first.Details ? `: ${first.Details}` : ''}` : `http ${init.status}`;
    super(`calling outscale ${init.action}: ${what}${init.requestId ? ` [request ${init.requestId}]` : ''}`);
    this.name = 'OutscaleApiError';
    this.status = init.status;
    this.action = init.action;
    this.errors = init.errors;
    if (init.requestId !== undefined) this.requestId = init.requestId;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
  }

  /** The first error's code (`5063`), or '' when the body had none. */
  get code(): string {
    return this.errors[0]?.Code ?? '';
  }

  get type(): string {
    return this.errors[0]?.Type ?? '';
  }

  get details(): string {
    return this.errors[0]?.Details ?? '';
  }
}

/** The request got no HTTP answer: timed out, aborted, or the connection failed. */
export class OutscaleTransportError extends Error {
  readonly action: string;
  readonly timedOut: boolean;

  constructor(action: string, cause: unknown, timedOut: boolean) {
    const reason = timedOut ? 'timed out' : cause instanceof Error ? cause.message : String(cause);
    super(`calling outscale ${action}: ${reason}`, { cause });
    this.name = 'OutscaleTransportError';
    this.action = action;
    this.timedOut = timedOut;
  }
}

/** The response was not the JSON the API promises (a proxy's HTML page, a truncated body). */
export class OutscaleResponseError extends Error {
  readonly status: number;

  constructor(action: string, status: number, reason: string) {
    super(`calling outscale ${action}: reading the http ${status} response: ${reason}`);
    this.name = 'OutscaleResponseError';
    this.status = status;
  }
}

function apiError(err: unknown): OutscaleApiError | undefined {
  return err instanceof OutscaleApiError ? err : undefined;
}

function codeNumber(e: OutscaleApiError): number {
  return Number.parseInt(e.code, 10);
}

/** 5xxx InvalidResource: the VM, image, subnet, fGPU… does not exist. */
export function isNotFound(err: unknown): boolean {
  const e = apiError(err);
  if (!e) return false;
  const code = codeNumber(e);
  return e.type === 'InvalidResource' || (code >= 5000 && code < 6000);
}

/** 10xxx TooManyResources (QuotaExceded): the account's quota refuses it. */
export function isQuota(err: unknown): boolean {
  const e = apiError(err);
  if (!e) return false;
  const code = codeNumber(e);
  return e.type === 'TooManyResources (QuotaExceded)' || e.type === 'TooManyResources' || (code >= 10000 && code < 11000);
}

/**
 * The cloud has no capacity left for this VM type in this subregion. The reference gives no code for it; the
 * test bed's emulator answers `InsufficientCapacity` / 3001, and the Type is what counts.
 */
export function isCapacity(err: unknown): boolean {
  const e = apiError(err);
  return e !== undefined && (e.type === 'InsufficientCapacity' || e.code === '3001');
}

/** 429 / RequestLimitExceeded. */
export function isThrottle(err: unknown): boolean {
  const e = apiError(err);
  return e !== undefined && (e.status === 429 || e.type === 'RequestLimitExceeded');
}

/** Worth retrying as is: throttling, 5xx, or no answer at all. */
export function isTransient(err: unknown): boolean {
  if (err instanceof OutscaleTransportError) return true;
  if (err instanceof OutscaleResponseError) return err.status >= 500;
  const e = apiError(err);
  return e !== undefined && !isCapacity(e) && (isThrottle(e) || e.status >= 500);
}
