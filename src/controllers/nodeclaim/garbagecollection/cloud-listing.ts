/**
 * Reads the cloud's instance list into an InstanceListing that says plainly whether it can be trusted.
 * A throw, a timeout, or a malformed answer (not an array, an entry without providerID, a cloud answer that
 * lacked its list — IncompleteResponseError, reported as partial) is NOT complete —
 * and an incomplete listing makes garbage collection delete nothing (the Outscale post-mortem).
 */
import { findInChain, IncompleteResponseError } from '../../../cloudprovider/errors.js';
import type { CloudNodeClaim, CloudProvider } from '../../../cloudprovider/types.js';
import type { InstanceListing, ListedInstance } from '../../../domain/termination/index.js';
import type { Clock } from '../../../util/clock.js';

export class CloudListTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`listing cloud instances: no answer within ${timeoutMs} ms`);
    this.name = 'CloudListTimeoutError';
  }
}

export interface CloudListingResult {
  listing: InstanceListing;
  /** The error behind a failed listing, for logs. */
  error?: unknown;
}

async function listWithTimeout(cloudProvider: CloudProvider, clock: Clock, timeoutMs: number): Promise<unknown> {
  const timer = new AbortController();
  const timeout = clock.sleep(timeoutMs, timer.signal).then(
    () => Promise.reject(new CloudListTimeoutError(timeoutMs)),
    () => new Promise<never>(() => undefined), // aborted because list answered: never settles
  );
  try {
    return await Promise.race([cloudProvider.list(), timeout]);
  } finally {
    timer.abort(new Error('list answered'));
  }
}

function toListed(instance: CloudNodeClaim): ListedInstance {
  const listed: ListedInstance = { providerID: instance.providerID, createdAt: instance.createdAt };
  if (instance.nodeClaimName !== undefined) listed.nodeClaimName = instance.nodeClaimName;
  if (instance.terminating) listed.terminating = true;
  return listed;
}

export async function readCloudListing(cloudProvider: CloudProvider, clock: Clock, timeoutMs: number): Promise<CloudListingResult> {
  let answer: unknown;
  try {
    answer = await listWithTimeout(cloudProvider, clock, timeoutMs);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // The cloud answered, but not all it must: told apart from an outage in the skip metric and the Event.
    if (findInChain(error, IncompleteResponseError))
      return { listing: { kind: 'partial', reason: `incomplete answer: ${message}` }, error };
    const reason = error instanceof CloudListTimeoutError ? 'timeout' : 'error';
    return { listing: { kind: 'failed', reason: `${reason}: ${message}` }, error };
  }
  if (!Array.isArray(answer)) return { listing: { kind: 'partial', reason: 'the cloud list did not answer a list of instances' } };
  const instances = answer as CloudNodeClaim[];
  const malformed = instances.filter((i) => typeof i?.providerID !== 'string' || i.providerID === '').length;
  if (malformed > 0) return { listing: { kind: 'partial', reason: `${malformed} listed instances have no providerID` } };
  return { listing: { kind: 'complete', instances: instances.map(toListed) } };
}
