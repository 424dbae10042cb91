/**
 * Scaleway API errors → the core error classes (aws/karpenter-provider-aws `pkg/errors`): one table, so
 * the rest of the provider only tests for core classes. The SDK's error (`ScalewayError{status, body}`)
 * is reduced by `client.ts` to a `ScalewayFailure` and kept as the `cause`.
 */
import {
  IncompleteResponseError,
  InsufficientCapacityError,
  NodeClaimNotFoundError,
  PermanentCloudError,
  QuotaExceededError,
  TransientCloudError,
  type OfferingKey,
} from '../errors.js';

/** What an API error carries: the HTTP status and the JSON body's `type`, `message` and details. */
export interface ScalewayFailure {
  status: number;
  type?: string;
  message: string;
  /** `resource` of not_found / out_of_stock bodies. */
  resource?: string;
  /** `details[0].resource` of quotas_exceeded, `details[].argument_name` of invalid_arguments. */
  details?: readonly Record<string, unknown>[];
  /** `reset_seconds` of too_many_requests, in ms. */
  retryAfterMs?: number;
}

/** The raw API error, kept as the `cause` of the core error. */
export class ScalewayApiError extends Error {
  readonly failure: ScalewayFailure;

  constructor(failure: ScalewayFailure) {
    super(`scaleway api: http ${failure.status}${failure.type ? ` ${failure.type}` : ''}: ${failure.message}`);
    this.name = 'ScalewayApiError';
    this.failure = failure;
  }
}

/** What the failing call was about, so the error can name it (and ICE can name its offering). */
export interface ErrorContext {
  /** Gerund naming the call: `creating server`, `listing servers in fr-par-1`. */
  operation: string;
  /** The offering a create / poweron launches. */
  offering?: OfferingKey;
}

/** States in which the server cannot take the action yet; the next attempt may succeed. */
const TransientTypes = new Set(['transient_state', 'locked', 'too_many_requests', 'service_unavailable', 'internal_error']);
const PermanentTypes = new Set([
  'invalid_arguments',
  'invalid_request_error',
  'permissions_denied',
  'denied_authentication',
  'precondition_failed',
  'already_exists',
  'expired',
  'unknown_resource',
]);

function quotaOf(failure: ScalewayFailure): string | undefined {
  const resource = failure.details?.[0]?.resource;
  return typeof resource === 'string' ? resource : undefined;
}

function argumentsOf(failure: ScalewayFailure): string {
  const parts = (failure.details ?? []).map((d) => {
    const name = typeof d.argument_name === 'string' ? d.argument_name : undefined;
    const help = typeof d.help_message === 'string' ? d.help_message : undefined;
    return [name, help].filter((s) => s !== undefined).join(': ');
  });
  return parts.filter((p) => p !== '').join('; ');
}

function describe(failure: ScalewayFailure): string {
  const args = argumentsOf(failure);
  return args ? `${failure.message} (${args})` : failure.message;
}

/** The core error for an API failure. */
export function toCloudError(failure: ScalewayFailure, context: ErrorContext): Error {
  const cause = new ScalewayApiError(failure);
  const message = `${context.operation}: ${describe(failure)}`;
  // A success status whose body could not be read (empty, truncated, not JSON): the SDK throws it as an API error.
  if (failure.status >= 200 && failure.status < 300) return new IncompleteResponseError(message, { cause });
  if (failure.type === 'out_of_stock') {
    // Without an offering there is nothing to mark unavailable: the caller retries later.
    if (context.offering) return new InsufficientCapacityError(message, [context.offering], { cause });
    return new TransientCloudError(message, { cause });
  }
  if (failure.type === 'quotas_exceeded') {
    const quota = quotaOf(failure);
    return new QuotaExceededError(message, { cause, ...(quota ? { quota } : {}) });
  }
  if (failure.status === 404 || failure.type === 'not_found') return new NodeClaimNotFoundError(message, { cause });
  if (failure.status === 429 || failure.status >= 500 || TransientTypes.has(failure.type ?? '')) {
    return new TransientCloudError(message, {
      cause,
      ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
    });
  }
  if (PermanentTypes.has(failure.type ?? '') || failure.status >= 400) return new PermanentCloudError(message, { cause });
  return new PermanentCloudError(message, { cause });
}

/** A request that never got an answer (connection refused or reset, timeout): worth retrying. */
export function toNetworkError(error: unknown, context: ErrorContext): Error {
  const reason = error instanceof Error ? error.message : String(error);
  return new TransientCloudError(`${context.operation}: ${reason}`, { cause: error });
}
