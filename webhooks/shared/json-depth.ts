/**
 * A nesting-depth limit for request bodies. JSON.parse takes any depth, but the code that walks a parsed
 * object recurses: 10,000 levels overflowed the stack, a 500 for the caller and a wasted request for us.
 */

/**
 * Far above any Kubernetes object: a Pod's deepest field inside an AdmissionReview or ExtenderArgs
 * (`…podAffinityTerm.labelSelector.matchExpressions[].values[]`) sits about 15 levels down.
 */
export const MaxJsonDepth = 100;

const Quote = 0x22;
const Backslash = 0x5c;
const OpenBrace = 0x7b;
const CloseBrace = 0x7d;
const OpenBracket = 0x5b;
const CloseBracket = 0x5d;

/** A body nested deeper than MaxJsonDepth; a 400 for the caller. */
export class JsonDepthError extends Error {
  readonly status = 400;
  readonly type = 'entity.too.deep';

  constructor(offset: number) {
    super(
      `the JSON nests deeper than ${MaxJsonDepth} levels (at byte ${offset}); accepted: at most ${MaxJsonDepth} levels of objects and arrays`,
    );
    this.name = 'JsonDepthError';
  }
}

/** The index of the quote closing the string that opens at `start` (bytes.length when it never closes). */
function stringClose(bytes: Uint8Array, start: number): number {
  for (let at = bytes.indexOf(Quote, start + 1); at >= 0; at = bytes.indexOf(Quote, at + 1)) {
    let backslashes = 0;
    while (bytes[at - 1 - backslashes] === Backslash) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return bytes.length;
}

/**
 * Throws JsonDepthError when objects and arrays nest deeper than MaxJsonDepth, counting from `depth` (the
 * levels already open around these bytes). Malformed JSON is left to the parser that follows.
 */
export function checkJsonDepth(bytes: Uint8Array, depth = 0): void {
  let open = depth;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === Quote) i = stringClose(bytes, i);
    else if (byte === OpenBrace || byte === OpenBracket) {
      if (++open > MaxJsonDepth) throw new JsonDepthError(i);
    } else if (byte === CloseBrace || byte === CloseBracket) open--;
  }
}
