/**
 * Kubernetes API failures as classes (one per meaning), mapped once from client-node's ApiException so callers
 * test `instanceof KubeNotFound`, never HTTP codes. Guards look through `cause` chains (Go's errors.As).
 */

export interface KubeStatusDetails {
  /** HTTP status of the reply. */
  code: number;
  /** metav1.Status reason (`NotFound`, `AlreadyExists`, `Conflict`, `TooManyRequests`…), when the body had one. */
  reason?: string;
  /** The server's message, when the body had one. */
  serverMessage?: string;
  /** Retry-After in milliseconds (429, 503), when the server sent it. */
  retryAfterMs?: number;
}

export class KubeApiError extends Error {
  readonly code: number;
  readonly reason?: string;
  readonly serverMessage?: string;
  readonly retryAfterMs?: number;

  constructor(message: string, details: KubeStatusDetails, options?: ErrorOptions) {
    super(message, options);
    this.name = 'KubeApiError';
    this.code = details.code;
    this.reason = details.reason;
    this.serverMessage = details.serverMessage;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** 404: the object (or its namespace) does not exist. */
export class KubeNotFound extends KubeApiError {
  override readonly name: string = 'KubeNotFound';
}

/** 409: a resourceVersion/precondition conflict, or (subclass) a create of an existing name. */
export class KubeConflict extends KubeApiError {
  override readonly name: string = 'KubeConflict';
}

/** 409 AlreadyExists on create. */
export class KubeAlreadyExists extends KubeConflict {
  override readonly name: string = 'KubeAlreadyExists';
}

/** 429: throttled, or an eviction a PodDisruptionBudget refuses right now. */
export class KubeTooManyRequests extends KubeApiError {
  override readonly name: string = 'KubeTooManyRequests';
}

/** 422 (or 400): the object was refused by validation or admission. */
export class KubeInvalid extends KubeApiError {
  override readonly name: string = 'KubeInvalid';
}

/** 401/403. */
export class KubeForbidden extends KubeApiError {
  override readonly name: string = 'KubeForbidden';
}

/** 410: the resourceVersion asked for is too old. */
export class KubeGone extends KubeApiError {
  override readonly name: string = 'KubeGone';
}

/** The request never got an HTTP answer (connection refused, reset, timeout). */
export class KubeUnreachable extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'KubeUnreachable';
  }
}

/**
 * A success reply that lacks what the call returns: a list without `items`, an object without `metadata`, an
 * empty or unreadable body. Worth retrying; never to be read as an empty list (every instance would look
 * unowned to garbage collection).
 */
export class KubeIncompleteResponse extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'KubeIncompleteResponse';
  }
}

type ErrorClass<E extends Error> = abstract new (...args: never[]) => E;

/** The first error of class `cls` in `err`'s cause chain. */
export function findKubeError<E extends Error>(err: unknown, cls: ErrorClass<E>): E | undefined {
  let current: unknown = err;
  for (let depth = 0; current instanceof Error && depth < 10; depth++) {
    if (current instanceof cls) return current;
    current = current.cause;
  }
  return undefined;
}

export function isKubeNotFound(err: unknown): boolean {
  return findKubeError(err, KubeNotFound) !== undefined;
}

export function isKubeIncompleteResponse(err: unknown): boolean {
  return findKubeError(err, KubeIncompleteResponse) !== undefined;
}

export function isKubeConflict(err: unknown): boolean {
  return findKubeError(err, KubeConflict) !== undefined;
}

export function isKubeAlreadyExists(err: unknown): boolean {
  return findKubeError(err, KubeAlreadyExists) !== undefined;
}

export function isKubeTooManyRequests(err: unknown): boolean {
  return findKubeError(err, KubeTooManyRequests) !== undefined;
}

/** Swallows NotFound (a delete of something already gone is a success); rethrows the rest. */
export function ignoreKubeNotFound(err: unknown): undefined {
  if (isKubeNotFound(err)) return undefined;
  throw err;
}
