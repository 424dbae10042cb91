/**
 * The errors a CloudProvider may throw, in Karpenter's shape (`pkg/cloudprovider/types.go`): one class per
 * meaning, a guard that finds it anywhere in a `cause` chain (Go's errors.As), and `ignore` helpers.
 * Each cloud adapter maps its SDK's codes to these classes in its own `errors.ts`; callers only ever test
 * for these classes, never for a cloud's codes.
 */

/** An offering the cloud refused for lack of capacity. */
export interface OfferingKey {
  instanceType: string;
  zone: string;
  capacityType: string;
}

/** The instance behind a NodeClaim does not exist (any more). Delete returns it once the instance is gone. */
export class NodeClaimNotFoundError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'NodeClaimNotFoundError';
  }
}

/**
 * The cloud has no stock for these offerings right now (ICE). The offerings go to the unavailable-offerings
 * cache and the next launch picks another one; the NodeClaim is not retried as is.
 */
export class InsufficientCapacityError extends Error {
  readonly offerings: readonly OfferingKey[];

  constructor(message: string, offerings: readonly OfferingKey[], options?: ErrorOptions) {
    super(message, options);
    this.name = 'InsufficientCapacityError';
    this.offerings = offerings;
  }
}

/** The account's quota refuses the launch; no other offering of the same cloud account will help. */
export class QuotaExceededError extends Error {
  /** The quota concerned as the cloud names it (`instances`, `cores`, `gpu`…), when known. */
  readonly quota?: string;

  constructor(message: string, options?: ErrorOptions & { quota?: string }) {
    super(message, options);
    this.name = 'QuotaExceededError';
    if (options?.quota !== undefined) this.quota = options.quota;
  }
}

/** The NodeClaim's NodeClass is missing, not Ready, or its credentials Secret cannot be read. */
export class NodeClassNotReadyError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'NodeClassNotReadyError';
  }
}

/** A failure that may pass by itself (5xx, 429, timeout, connection reset): worth retrying. */
export class TransientCloudError extends Error {
  /** The server's Retry-After, in milliseconds, when it sent one. */
  readonly retryAfterMs?: number;

  constructor(message: string, options?: ErrorOptions & { retryAfterMs?: number }) {
    super(message, options);
    this.name = 'TransientCloudError';
    if (options?.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

/**
 * A create whose outcome is unknown (the process died or the reply was lost after the call was sent) was
 * made so recently that the cloud's listing may not show its instance yet: creating again could make a
 * second one. Not a failure: the caller looks again after `retryAfterMs`.
 */
export class CreatePendingError extends Error {
  readonly retryAfterMs: number;

  constructor(message: string, retryAfterMs: number) {
    super(message);
    this.name = 'CreatePendingError';
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * A success answer that lacks what the call must return: an empty body, `{}`, truncated JSON, a page short of
 * the total announced. Never read as "nothing there": it is retried like any transient failure, and a listing
 * built on it is not trusted (garbage collection deletes nothing on it).
 */
export class IncompleteResponseError extends TransientCloudError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'IncompleteResponseError';
  }
}

/** A failure that retrying the same request cannot fix (400, 403, unknown image…). */
export class PermanentCloudError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PermanentCloudError';
  }
}

/**
 * A launch failure with the reason to set on the NodeClaim's Launched condition, so `kubectl get nodeclaim`
 * tells the user why (Karpenter's CreateError{ConditionReason, ConditionMessage}).
 */
export class CreateError extends Error {
  readonly conditionReason: string;
  readonly conditionMessage: string;

  constructor(message: string, condition: { reason: string; message: string }, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CreateError';
    this.conditionReason = condition.reason;
    this.conditionMessage = condition.message;
  }
}

type ErrorClass<T extends Error> = abstract new (...args: never[]) => T;

/** The first error of class `cls` in `err`'s cause chain (err itself first); guards against cycles. */
export function findInChain<T extends Error>(err: unknown, cls: ErrorClass<T>): T | undefined {
  const seen = new Set<unknown>();
  let current: unknown = err;
  while (current !== undefined && current !== null && !seen.has(current)) {
    if (current instanceof cls) return current;
    seen.add(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}

export function isNodeClaimNotFoundError(err: unknown): boolean {
  return findInChain(err, NodeClaimNotFoundError) !== undefined;
}

export function isInsufficientCapacityError(err: unknown): boolean {
  return findInChain(err, InsufficientCapacityError) !== undefined;
}

export function isQuotaExceededError(err: unknown): boolean {
  return findInChain(err, QuotaExceededError) !== undefined;
}

export function isNodeClassNotReadyError(err: unknown): boolean {
  return findInChain(err, NodeClassNotReadyError) !== undefined;
}

export function isTransientCloudError(err: unknown): boolean {
  return findInChain(err, TransientCloudError) !== undefined;
}

export function isPermanentCloudError(err: unknown): boolean {
  return findInChain(err, PermanentCloudError) !== undefined;
}

export function isCreateError(err: unknown): boolean {
  return findInChain(err, CreateError) !== undefined;
}

/** Rethrows anything but a NodeClaimNotFoundError: `await cp.delete(nc).catch(ignoreNodeClaimNotFound)`. */
export function ignoreNodeClaimNotFound(err: unknown): void {
  if (!isNodeClaimNotFoundError(err)) throw err;
}

/** Rethrows anything but an InsufficientCapacityError. */
export function ignoreInsufficientCapacity(err: unknown): void {
  if (!isInsufficientCapacityError(err)) throw err;
}

/** Rethrows anything but a NodeClassNotReadyError. */
export function ignoreNodeClassNotReady(err: unknown): void {
  if (!isNodeClassNotReadyError(err)) throw err;
}

/**
 * The name of the most specific known class in the chain, for metrics' `error` label; `unknown` otherwise.
 * Order matters: a CreateError wrapping an InsufficientCapacityError is reported as the latter.
 */
export function errorClassName(err: unknown): string {
  const known: ErrorClass<Error>[] = [
    NodeClaimNotFoundError,
    InsufficientCapacityError,
    QuotaExceededError,
    NodeClassNotReadyError,
    IncompleteResponseError,
    TransientCloudError,
    PermanentCloudError,
    CreateError,
  ];
  for (const cls of known) {
    const found = findInChain(err, cls);
    if (found) return found.name;
  }
  return 'unknown';
}
