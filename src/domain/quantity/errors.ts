/** Errors of quantity parsing; messages name the value and the forms Kubernetes accepts. */

export const ACCEPTED_QUANTITY_FORMS =
  'a number with an optional sign, fraction and suffix: decimal SI n u m k M G T P E, binary Ki Mi Gi Ti Pi Ei, ' +
  "or an exponent e<N>/E<N> (e.g. 500m, 1.5, 2Gi, 1e3, 100M), matching '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

export type QuantityErrorReason = 'format' | 'suffix' | 'numeric' | 'range' | 'length';

/** How much of a refused value an error message quotes: enough to recognise it, never the whole of a huge one. */
const QuotedLength = 40;

function quoted(input: string): string {
  return input.length <= QuotedLength ? JSON.stringify(input) : `${JSON.stringify(input.slice(0, QuotedLength))}…`;
}

export class QuantityParseError extends Error {
  override readonly name = 'QuantityParseError';

  constructor(
    readonly input: string,
    readonly reason: QuantityErrorReason,
    detail: string,
  ) {
    super(`parsing quantity ${quoted(input)}: ${detail}; accepted: ${ACCEPTED_QUANTITY_FORMS}`);
  }
}

/** A resource list entry that is not a quantity; names the field (resource) as well as the value. */
export class ResourceListParseError extends Error {
  override readonly name = 'ResourceListParseError';

  constructor(
    readonly resource: string,
    override readonly cause: QuantityParseError,
  ) {
    super(`parsing resource ${JSON.stringify(resource)}: ${cause.message}`);
  }
}
