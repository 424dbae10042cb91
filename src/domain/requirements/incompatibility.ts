/**
 * Why two Requirements are not compatible. Built on hot paths where most failures are discarded, so it
 * is plain data with a lazily computed message (as upstream's badKeyError), not an Error.
 */
import type { Requirement } from './requirement.js';

export type Incompatibility =
  | { readonly kind: 'undefined-label'; readonly key: string; readonly hint: string | undefined; readonly message: string }
  | {
      readonly kind: 'no-intersection';
      readonly key: string;
      readonly incoming: Requirement;
      readonly existing: Requirement;
      readonly message: string;
    };

export function undefinedLabel(key: string, hint: string | undefined): Incompatibility {
  return {
    kind: 'undefined-label',
    key,
    hint,
    get message() {
      return `label ${JSON.stringify(key)} does not have known values${hint === undefined ? '' : ` (typo of ${JSON.stringify(hint)}?)`}`;
    },
  };
}

export function noIntersection(key: string, incoming: Requirement, existing: Requirement): Incompatibility {
  return {
    kind: 'no-intersection',
    key,
    incoming,
    existing,
    get message() {
      return `key ${key}, ${incoming.toString()} not in ${existing.toString()}`;
    },
  };
}

/** An Error for callers that throw or report incompatibilities. */
export class IncompatibleRequirementsError extends Error {
  override readonly name = 'IncompatibleRequirementsError';

  constructor(readonly incompatibility: Incompatibility) {
    super(incompatibility.message);
  }
}
