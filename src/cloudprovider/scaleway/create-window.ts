/**
 * When a create may be sent again. `createServer` takes no idempotency key, and a new server can stay out of
 * the listings for a while: after a create whose outcome is unknown (the process killed during the call, the
 * reply lost), a listing that shows nothing proves nothing until the window has passed. Pure: times in, wait out.
 */

/**
 * Scaleway publishes no bound on how long a new server may be missing from `GET /servers`. A server can be
 * made any time until the client gives up on the create (30 s request timeout), then stay unlisted for as
 * long as the longest lag we model (30 s); 60 s covers both.
 */
export const DefaultListingConsistencyWindowMs = 60_000;

/** How often a waiting launch looks at the listing again: the server usually shows well before the window ends. */
export const ListingRecheckMs = 5_000;

/** The NodeClaim annotation holding when a create was last sent (RFC 3339), written before the call. */
export const AnnotationCreateAttempted = 'karpenter-eu.io/create-attempted-at';

export interface CreateAttempts {
  /** From the NodeClaim's annotation: survives a restart. */
  recordedAt?: number;
  /** This process: an attempt started at this instant is known to have made nothing (refused) or its server is known. */
  settledAt?: number;
  /** This process: when the last create whose outcome is unknown ended. */
  uncertainSince?: number;
}

/** Milliseconds to wait before the next create may be sent; 0 when it may be sent now. */
export function createWaitMs(attempts: CreateAttempts, now: number, windowMs: number): number {
  const recorded =
    attempts.recordedAt !== undefined && !(attempts.settledAt !== undefined && attempts.settledAt >= attempts.recordedAt)
      ? attempts.recordedAt
      : undefined;
  const since = Math.max(recorded ?? -Infinity, attempts.uncertainSince ?? -Infinity);
  if (since === -Infinity) return 0;
  return Math.max(0, since + windowMs - now);
}

/** The annotation's instant; undefined when absent or not a date (then nothing is known of earlier attempts). */
export function parseCreateAttempted(annotations: Readonly<Record<string, string>> | undefined): number | undefined {
  const value = annotations?.[AnnotationCreateAttempted];
  if (value === undefined) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : at;
}

/** The wait before a create, from the NodeClaim's annotations and what this process knows of its attempts. */
export function listingWaitMs(
  annotations: Readonly<Record<string, string>> | undefined,
  known: Omit<CreateAttempts, 'recordedAt'>,
  now: number,
  windowMs: number,
): number {
  const recordedAt = parseCreateAttempted(annotations);
  return createWaitMs({ ...known, ...(recordedAt !== undefined ? { recordedAt } : {}) }, now, windowMs);
}
