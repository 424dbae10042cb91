/** Maps client-node 1.4 failures (ApiException with `.code`, `.body`, `.headers`) to the classes of errors.ts. */
import {
  KubeAlreadyExists,
  KubeApiError,
  KubeConflict,
  KubeIncompleteResponse,
  KubeForbidden,
  KubeGone,
  KubeInvalid,
  KubeNotFound,
  type KubeStatusDetails,
  KubeTooManyRequests,
  KubeUnreachable,
} from './errors.js';

interface ApiExceptionLike {
  code: number;
  body?: unknown;
  headers?: Record<string, string>;
}

function isApiException(err: unknown): err is ApiExceptionLike {
  return err instanceof Error && typeof (err as { code?: unknown }).code === 'number' && 'body' in err;
}

/** CustomObjectsApi hands the Status over as a JSON string, the typed APIs as an object. */
function statusBody(body: unknown): { reason?: string; message?: string } {
  if (typeof body === 'string') {
    try {
      return statusBody(JSON.parse(body) as unknown);
    } catch {
      return { message: body };
    }
  }
  if (body && typeof body === 'object') {
    const b = body as { reason?: unknown; message?: unknown };
    return { reason: typeof b.reason === 'string' ? b.reason : undefined, message: typeof b.message === 'string' ? b.message : undefined };
  }
  return {};
}

function retryAfterMs(headers: Record<string, string> | undefined): number | undefined {
  const raw = headers?.['retry-after'] ?? headers?.['Retry-After'];
  if (raw === undefined) return undefined;
  const seconds = Number(raw);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

function classFor(code: number, reason: string | undefined): typeof KubeApiError {
  if (code === 404) return KubeNotFound;
  if (code === 409) return reason === 'AlreadyExists' ? KubeAlreadyExists : KubeConflict;
  if (code === 429) return KubeTooManyRequests;
  if (code === 422 || code === 400) return KubeInvalid;
  if (code === 401 || code === 403) return KubeForbidden;
  if (code === 410) return KubeGone;
  return KubeApiError;
}

/**
 * The typed error for a failed call; `doing` is the gerund phrase naming the call ("patching nodeclaim
 * default-abc"). Errors that are already ours pass through unchanged.
 */
export function mapKubeError(err: unknown, doing: string): Error {
  if (err instanceof KubeApiError || err instanceof KubeUnreachable || err instanceof KubeIncompleteResponse) return err;
  if (isApiException(err)) {
    const status = statusBody(err.body);
    const details: KubeStatusDetails = {
      code: err.code,
      reason: status.reason,
      serverMessage: status.message,
      retryAfterMs: retryAfterMs(err.headers),
    };
    const Cls = classFor(err.code, status.reason);
    const suffix = status.message ?? status.reason ?? `http ${err.code}`;
    return new Cls(`${doing}: ${suffix}`, details, { cause: err });
  }
  const message = err instanceof Error ? err.message : String(err);
  // client-node parses the body of a success reply itself: a SyntaxError means it came empty or cut short.
  if (err instanceof SyntaxError) return new KubeIncompleteResponse(`${doing}: the reply is not readable json: ${message}`, { cause: err });
  return new KubeUnreachable(`${doing}: ${message}`, { cause: err });
}
