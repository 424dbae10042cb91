/**
 * Scaleway's error bodies, keyed by `type`, with the fields the SDK's error parser needs to build its typed
 * errors (`resource` + `resource_id` for not_found, `details[]` for invalid_arguments / quotas_exceeded, …).
 */

export type ErrorBody = Record<string, unknown> & { type: string; message: string };

/** An error the emulator answers with, exactly as the real API would. */
export class ScalewayApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
    this.name = 'ScalewayApiError';
  }
}

export function notFound(resource: string, resourceId: string): ScalewayApiError {
  return new ScalewayApiError(404, { type: 'not_found', message: 'resource is not found', resource, resource_id: resourceId });
}

export function invalidArgument(argumentName: string, helpMessage: string, reason = 'constraint'): ScalewayApiError {
  return new ScalewayApiError(400, {
    type: 'invalid_arguments',
    message: 'invalid argument(s)',
    details: [{ argument_name: argumentName, reason, help_message: helpMessage }],
  });
}

/** The legacy Instance API shape for requests it refuses outright (e.g. deleting a running server). */
export function invalidRequest(message: string): ScalewayApiError {
  return new ScalewayApiError(400, { type: 'invalid_request_error', message });
}

export function deniedAuthentication(reason: 'invalid_argument' | 'not_found'): ScalewayApiError {
  return new ScalewayApiError(401, { type: 'denied_authentication', message: 'authentication is denied', method: 'api_key', reason });
}

export function permissionsDenied(verb: string, resource: string): ScalewayApiError {
  return new ScalewayApiError(403, {
    type: 'permissions_denied',
    message: 'insufficient permissions',
    details: [{ resource, action: verb }],
  });
}

export function outOfStock(commercialType: string): ScalewayApiError {
  return new ScalewayApiError(412, { type: 'out_of_stock', message: 'out of stock', resource: commercialType });
}

export function quotasExceeded(resource: string, quota: number, current: number): ScalewayApiError {
  return new ScalewayApiError(403, {
    type: 'quotas_exceeded',
    message: 'quota(s) exceeded for this resource',
    details: [{ resource, quota, current }],
  });
}

export function preconditionFailed(precondition: string, helpMessage: string): ScalewayApiError {
  return new ScalewayApiError(412, {
    type: 'precondition_failed',
    message: 'resource is not usable in its current state',
    precondition,
    help_message: helpMessage,
  });
}

export function transientState(resource: string, resourceId: string, currentState: string): ScalewayApiError {
  return new ScalewayApiError(409, {
    type: 'transient_state',
    message: `resource is in a transient state: ${currentState}`,
    resource,
    resource_id: resourceId,
    current_state: currentState,
  });
}

export function tooManyRequests(retryAfterSeconds: number): ScalewayApiError {
  return new ScalewayApiError(
    429,
    {
      type: 'too_many_requests',
      message: 'too many requests',
      help_message: 'rate limit exceeded, retry later',
      limit: { quota: 50, window_seconds: 1 },
      reset_seconds: retryAfterSeconds,
    },
    { 'Retry-After': String(retryAfterSeconds) },
  );
}

export function serverError(status: number): ScalewayApiError {
  const type = status === 503 ? 'service_unavailable' : 'internal_error';
  return new ScalewayApiError(status, { type, message: status === 503 ? 'service unavailable' : 'internal error' });
}

/** Quota resource names follow Scaleway's `instances_<type>` pattern, lower-case with underscores. */
export function quotaResourceName(commercialType: string): string {
  return `instances_${commercialType.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`;
}
