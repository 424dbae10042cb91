/**
 * OVH API failures → the core error classes, in one table, so the rest of the provider only tests for core
 * classes. The OVH SDK rejects with `{error, message}` (`error` the HTTP status, or a socket error); the
 * client reduces it to an `OvhFailure` and keeps it as the `cause` (an `OvhApiError`).
 *
 * MKS reports lack of stock and quota not as HTTP errors but as node statuses (`FLAVOR_OUT_OF_STOCK_ERROR`,
 * `USER_QUOTA_ERROR`): `nodeFailureError` maps those.
 */
import {
  IncompleteResponseError,
  InsufficientCapacityError,
  PermanentCloudError,
  QuotaExceededError,
  TransientCloudError,
  findInChain,
  type OfferingKey,
} from '../errors.js';

export interface OvhFailure {
  /** The HTTP status; undefined when no answer came (connection reset, timeout). */
  status?: number;
  message: string;
}

/** The raw API failure, kept as the `cause` of the core error. */
export class OvhApiError extends Error {
  readonly failure: OvhFailure;

  constructor(failure: OvhFailure) {
    super(failure.status === undefined ? `ovh api: no answer: ${failure.message}` : `ovh api: http ${failure.status}: ${failure.message}`);
    this.name = 'OvhApiError';
    this.failure = failure;
  }
}

/** The HTTP status of the OVH failure in `err`'s cause chain, if any. */
export function ovhStatusOf(err: unknown): number | undefined {
  return findInChain(err, OvhApiError)?.failure.status;
}

/** An HTTP 404 from the OVH API, whatever it names (check it is about the resource asked for). */
export function isOvhNotFound(err: unknown): boolean {
  return ovhStatusOf(err) === 404;
}

/** MKS's refusal to grow a cluster beyond its node cap (100 nodes, "Known limits"). */
const ClusterCapMessage = /limited to \d+ nodes/i;
const QuotaMessage = /quota/i;
/** What the SDK rejects with when a 2xx body is not JSON (its own spelling). */
const UnreadableBody = /unable to parse json/i;

/** The core error for an API failure; `operation` names the call in gerund form ("creating node pool x"). */
export function toCloudError(failure: OvhFailure, operation: string): Error {
  const cause = new OvhApiError(failure);
  const message = `${operation}: ${failure.message || `http ${failure.status ?? 'no answer'}`}`;
  const status = failure.status;
  if (status === undefined && UnreadableBody.test(failure.message)) return new IncompleteResponseError(message, { cause });
  if (status === undefined || status === 429 || status >= 500) return new TransientCloudError(message, { cause });
  // A 404 may name the project or the MKS cluster, not the node: only the caller that asked about a node or
  // pool of a cluster it just read can call it gone (`isOvhNotFound`); anything else must not pass for gone.
  if (status === 404) return new PermanentCloudError(message, { cause });
  if (ClusterCapMessage.test(failure.message)) return new QuotaExceededError(message, { cause, quota: 'cluster-nodes' });
  if (QuotaMessage.test(failure.message)) return new QuotaExceededError(message, { cause });
  return new PermanentCloudError(message, { cause });
}

/**
 * What the OVH SDK rejected with → an `OvhFailure`. Its `error` is the HTTP status (≥ 100), or for a
 * socket error the errno (a negative number) or the Error itself.
 */
export function failureOf(rejection: unknown): OvhFailure {
  if (typeof rejection === 'object' && rejection !== null && 'error' in rejection) {
    const { error, message } = rejection as { error: unknown; message?: unknown };
    const text = typeof message === 'string' ? message : '';
    if (typeof error === 'number' && error >= 100) return { status: error, message: text };
    return { message: text || describe(error) };
  }
  return { message: describe(rejection) };
}

function describe(value: unknown): string {
  if (value instanceof Error) return value.message;
  if (typeof value === 'number') return `socket error ${value}`;
  return String(value);
}

/** Node statuses of a launch that will never become a node. */
export const NodeFailureStatuses: ReadonlySet<string> = new Set([
  'FLAVOR_OUT_OF_STOCK_ERROR',
  'USER_QUOTA_ERROR',
  'ERROR',
  'USER_ERROR',
  'USER_NODE_NOT_FOUND_ERROR',
  'USER_NODE_SUSPENDED_SERVICE',
]);

/** The core error for a node MKS could not launch. */
export function nodeFailureError(status: string, offering: OfferingKey, nodeId: string): Error {
  const where = `${offering.instanceType} in ${offering.zone}`;
  if (status === 'FLAVOR_OUT_OF_STOCK_ERROR') {
    return new InsufficientCapacityError(`launching node ${nodeId}: flavor ${where} is out of stock`, [offering]);
  }
  if (status === 'USER_QUOTA_ERROR') {
    return new QuotaExceededError(
      `launching node ${nodeId}: the Public Cloud project quota refuses another ${offering.instanceType} (instances or vCPUs)`,
      { quota: 'instances' },
    );
  }
  return new PermanentCloudError(`launching node ${nodeId}: MKS reports status ${status} for ${where}`);
}
