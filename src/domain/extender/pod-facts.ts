/** What the extender needs to know about the pod being scheduled. */
import type { V1Pod } from '@kubernetes/client-node';
import type { ResourceList } from '../instancetypes/types.js';
import { podRequests } from '../pods/requests.js';
import { QuantityParseError, ResourceListParseError } from '../quantity/errors.js';
import { ExtenderArgsError } from './errors.js';

/**
 * The pod's requests (cpu millicores, others base units); a quantity the API server would have refused
 * counts as no request, so a bad pod still gets a pass-through answer instead of an error. A quantity
 * longer than any real one is not a mistake but a request built to be expensive: ExtenderArgsError.
 */
export function podRequestsOrEmpty(pod: V1Pod): ResourceList {
  try {
    return podRequests(pod);
  } catch (error) {
    if (isTooLong(error)) throw new ExtenderArgsError(`Pod: ${(error as Error).message}`);
    if (error instanceof QuantityParseError || error instanceof ResourceListParseError) return {};
    throw error;
  }
}

function isTooLong(error: unknown): boolean {
  const cause = error instanceof ResourceListParseError ? error.cause : error;
  return cause instanceof QuantityParseError && cause.reason === 'length';
}
