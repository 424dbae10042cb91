/**
 * The string form of label selectors (`?labelSelector=`), as k8s labels.Parse reads it:
 * `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x,y)`, `a`, `!a`, `a>1`, `a<1`, comma-separated, ANDed.
 * Parsed into a LabelSelector (equalities become In/NotIn with one value) that the domain's selector matching
 * then reads, so the simulated API server filters lists as the product's own selectors match; formatLabelSelector
 * writes it back.
 */
import {
  type LabelSelector,
  type LabelSelectorRequirement,
  LabelSelectorError,
  labelKeyErrors,
  labelValueErrors,
} from '../../../domain/requirements/index.js';

type TokenKind = 'identifier' | 'not' | '=' | '==' | '!=' | '(' | ')' | ',' | '>' | '<' | 'end';

interface Token {
  kind: TokenKind;
  text: string;
}

const specialChars = '!=(),<>';
const whitespace = ' \t\n\r\f\v';

const ACCEPTED_SELECTOR_SYNTAX = 'accepted: comma-separated a=b, a==b, a!=b, a in (x,y), a notin (x,y), a, !a, a>N, a<N';

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i] as string;
    if (whitespace.includes(ch)) {
      i++;
    } else if (specialChars.includes(ch)) {
      const two = input.slice(i, i + 2);
      if (two === '!=' || two === '==') {
        tokens.push({ kind: two, text: two });
        i += 2;
      } else {
        tokens.push({ kind: ch === '!' ? 'not' : (ch as TokenKind), text: ch });
        i++;
      }
    } else {
      let j = i;
      while (j < input.length && !whitespace.includes(input[j] as string) && !specialChars.includes(input[j] as string)) j++;
      tokens.push({ kind: 'identifier', text: input.slice(i, j) });
      i = j;
    }
  }
  tokens.push({ kind: 'end', text: 'end of string' });
  return tokens;
}

class SelectorParser {
  private pos = 0;

  constructor(
    private readonly input: string,
    private readonly tokens: Token[],
  ) {}

  parse(): LabelSelectorRequirement[] {
    const requirements: LabelSelectorRequirement[] = [];
    if (this.peek().kind === 'end') return requirements;
    for (;;) {
      requirements.push(this.requirement());
      const next = this.next();
      if (next.kind === 'end') return requirements;
      if (next.kind !== ',') this.fail(`found '${next.text}', expected: ',' or 'end of string'`);
      const after = this.peek();
      if (after.kind !== 'identifier' && after.kind !== 'not') this.fail(`found '${after.text}', expected: identifier after ','`);
    }
  }

  private requirement(): LabelSelectorRequirement {
    if (this.peek().kind === 'not') {
      this.next();
      return this.validated({ key: this.identifier('identifier after !'), operator: 'DoesNotExist' });
    }
    const key = this.identifier('!, identifier, or end of string');
    const following = this.peek().kind;
    if (following === 'end' || following === ',') return this.validated({ key, operator: 'Exists' });
    const op = this.next();
    switch (op.kind === 'identifier' ? op.text : op.kind) {
      case '=':
      case '==':
        return this.validated({ key, operator: 'In', values: [this.exactValue()] });
      case '!=':
        return this.validated({ key, operator: 'NotIn', values: [this.exactValue()] });
      case '>':
        return this.validated({ key, operator: 'Gt', values: [this.exactValue()] });
      case '<':
        return this.validated({ key, operator: 'Lt', values: [this.exactValue()] });
      case 'in':
        return this.validated({ key, operator: 'In', values: this.valueList() });
      case 'notin':
        return this.validated({ key, operator: 'NotIn', values: this.valueList() });
      default:
        return this.fail(`found '${op.text}', expected: =, ==, !=, in, notin, >, <`);
    }
  }

  private exactValue(): string {
    const t = this.peek();
    if (t.kind === 'end' || t.kind === ',') return '';
    if (t.kind !== 'identifier') this.fail(`found '${t.text}', expected: identifier`);
    return this.next().text;
  }

  /** `(a,b)`; empty elements are "" as in k8s (`()` is `("")`). */
  private valueList(): string[] {
    const open = this.next();
    if (open.kind !== '(') this.fail(`found '${open.text}', expected: '('`);
    const values = new Set<string>();
    let expectValue = true;
    for (;;) {
      const t = this.next();
      if (t.kind === ')') {
        if (expectValue) values.add('');
        return [...values];
      }
      if (t.kind === ',') {
        if (expectValue) values.add('');
        expectValue = true;
      } else if (t.kind === 'identifier' && expectValue) {
        values.add(t.text);
        expectValue = false;
      } else {
        this.fail(`found '${t.text}', expected: ',', ')' or identifier`);
      }
    }
  }

  private identifier(expected: string): string {
    const t = this.next();
    if (t.kind !== 'identifier') this.fail(`found '${t.text}', expected: ${expected}`);
    return t.text;
  }

  private validated(r: LabelSelectorRequirement): LabelSelectorRequirement {
    const keyErrors = labelKeyErrors(r.key);
    if (keyErrors.length > 0) this.fail(`invalid label key ${JSON.stringify(r.key)}: ${keyErrors.join('; ')}`);
    for (const v of r.values ?? []) {
      if (r.operator === 'Gt' || r.operator === 'Lt') {
        if (!/^[+-]?[0-9]+$/.test(v)) this.fail(`for 'Gt', 'Lt' operators, the value must be an integer, got ${JSON.stringify(v)}`);
        continue;
      }
      const valueErrors = labelValueErrors(v);
      if (valueErrors.length > 0) this.fail(`invalid label value ${JSON.stringify(v)}: ${valueErrors.join('; ')}`);
    }
    return r;
  }

  private peek(): Token {
    return this.tokens[this.pos] as Token;
  }

  private next(): Token {
    const t = this.tokens[this.pos] as Token;
    if (t.kind !== 'end') this.pos++;
    return t;
  }

  private fail(detail: string): never {
    throw new LabelSelectorError(`parsing label selector ${JSON.stringify(this.input)}: ${detail}; ${ACCEPTED_SELECTOR_SYNTAX}`);
  }
}

/** Parses the string form; "" selects everything. */
export function parseLabelSelector(input: string): LabelSelector {
  return { matchExpressions: new SelectorParser(input, tokenize(input)).parse() };
}

/** The string form of a selector (matchLabels as k=v, then the expressions). */
export function formatLabelSelector(selector: LabelSelector): string {
  const parts: string[] = [];
  for (const key in selector.matchLabels) parts.push(`${key}=${selector.matchLabels[key]}`);
  for (const e of selector.matchExpressions ?? []) parts.push(formatExpression(e));
  return parts.join(',');
}

function formatExpression(e: LabelSelectorRequirement): string {
  const values = e.values ?? [];
  switch (e.operator) {
    case 'In':
      return `${e.key} in (${values.join(',')})`;
    case 'NotIn':
      return `${e.key} notin (${values.join(',')})`;
    case 'Exists':
      return e.key;
    case 'DoesNotExist':
      return `!${e.key}`;
    case 'Gt':
      return `${e.key}>${values[0] ?? ''}`;
    case 'Lt':
      return `${e.key}<${values[0] ?? ''}`;
    default:
      throw new LabelSelectorError(
        `formatting label selector: operator ${JSON.stringify(e.operator)} is not supported; accepted: In, NotIn, Exists, DoesNotExist, Gt, Lt`,
      );
  }
}
