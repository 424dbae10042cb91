/**
 * API errors rendered as metav1.Status exactly as kube-apiserver words them
 * (k8s.io/apimachinery/pkg/api/errors), so clients and kubectl react to them as they would for real.
 */
import { type ResourceType, qualifiedResource } from './resource-type.js';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/** An error that the server answers with a Status body and its HTTP code. */
export class ApiError extends Error {
  /** Admission warnings still reported on a rejected request. */
  readonly warnings: string[] = [];

  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusDetails,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toStatus(): Status {
    const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: this.message, code: this.code };
    if (this.reason) status.reason = this.reason;
    if (this.details) status.details = this.details;
    return status;
  }
}

function detailsOf(type: ResourceType, name: string): StatusDetails {
  return { name, group: type.group, kind: type.plural };
}

export function notFound(type: ResourceType, name: string): ApiError {
  return new ApiError(404, 'NotFound', `${qualifiedResource(type)} "${name}" not found`, detailsOf(type, name));
}

export function alreadyExists(type: ResourceType, name: string): ApiError {
  return new ApiError(409, 'AlreadyExists', `${qualifiedResource(type)} "${name}" already exists`, detailsOf(type, name));
}

export function conflict(type: ResourceType, name: string, why: string): ApiError {
  return new ApiError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(type)} "${name}": ${why}`,
    detailsOf(type, name),
  );
}

export const staleObjectMessage = 'the object has been modified; please apply your changes to the latest version and try again';

export function invalid(type: ResourceType, name: string, causes: Array<{ field: string; message: string; reason?: string }>): ApiError {
  const kindGroup = type.group ? `${type.kind}.${type.group}` : type.kind;
  const summary = causes.map((c) => `${c.field}: ${c.message}`).join(', ');
  const message = causes.length > 1 ? `${kindGroup} "${name}" is invalid: [${summary}]` : `${kindGroup} "${name}" is invalid: ${summary}`;
  return new ApiError(422, 'Invalid', message, {
    name,
    group: type.group,
    kind: type.kind,
    causes: causes.map((c) => ({ reason: c.reason ?? 'FieldValueInvalid', message: c.message, field: c.field })),
  });
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message);
}

export function methodNotAllowed(): ApiError {
  return new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
}

export function notFoundPath(): ApiError {
  return new ApiError(404, 'NotFound', 'the server could not find the requested resource', {});
}

export function unsupportedMediaType(contentType: string, accepted: readonly string[]): ApiError {
  return new ApiError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
    contentType ? { causes: [{ reason: 'UnsupportedMediaType', message: contentType }] } : undefined,
  );
}

export function gone(message: string): ApiError {
  return new ApiError(410, 'Expired', message);
}

export function internalError(message: string): ApiError {
  return new ApiError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
}
