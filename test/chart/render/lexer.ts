/**
 * Splits a template into text and actions (`{{ … }}`, with `{{-`/`-}}` whitespace trimming and comments), and
 * an action into tokens.
 */
import { TemplateError } from './errors.js';

export type Piece = { kind: 'text'; text: string } | { kind: 'action'; source: string; line: number };

export type Token =
  | { kind: 'pipe' | 'open' | 'close' | 'declare' | 'assign' | 'comma' }
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'field'; chain: string[] }
  | { kind: 'variable'; name: string; chain: string[] }
  | { kind: 'identifier'; name: string };

function lineAt(source: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (source.charCodeAt(i) === 10) line++;
  return line;
}

/** The index of the `}}` closing the action that starts at `from`, skipping quoted strings. */
function actionEnd(source: string, from: number, template: string): number {
  let quote: string | undefined;
  for (let i = from; i < source.length; i++) {
    const c = source[i] as string;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === '`') {
      quote = c;
    } else if (c === '}' && source[i + 1] === '}') {
      return i;
    }
  }
  throw new TemplateError(template, lineAt(source, from), 'unclosed action');
}

export function splitPieces(source: string, template: string): Piece[] {
  const pieces: Piece[] = [];
  let cursor = 0;
  let trimNext = false;
  while (cursor <= source.length) {
    const open = source.indexOf('{{', cursor);
    let text = source.slice(cursor, open === -1 ? source.length : open);
    if (trimNext) text = text.replace(/^\s+/, '');
    if (open === -1) {
      if (text) pieces.push({ kind: 'text', text });
      break;
    }
    const trimLeft = /^\{\{-\s/.test(source.slice(open, open + 4));
    if (trimLeft) text = text.replace(/\s+$/, '');
    if (text) pieces.push({ kind: 'text', text });
    const end = actionEnd(source, open + 2, template);
    let inner = source.slice(open + (trimLeft ? 3 : 2), end);
    trimNext = /\s-$/.test(inner);
    if (trimNext) inner = inner.slice(0, -1);
    const line = lineAt(source, open);
    const body = inner.trim();
    if (body.startsWith('/*')) {
      if (!body.endsWith('*/')) throw new TemplateError(template, line, 'unclosed comment');
    } else {
      pieces.push({ kind: 'action', source: body, line });
    }
    cursor = end + 2;
  }
  return pieces;
}

const identifierChars = /[A-Za-z0-9_]/;

function readChain(text: string, start: number): { chain: string[]; end: number } {
  const chain: string[] = [];
  let i = start;
  while (text[i] === '.' && identifierChars.test(text[i + 1] ?? '')) {
    let j = i + 1;
    while (j < text.length && identifierChars.test(text[j] as string)) j++;
    chain.push(text.slice(i + 1, j));
    i = j;
  }
  return { chain, end: i };
}

function readString(text: string, start: number, fail: (m: string) => never): { value: string; end: number } {
  const quote = text[start] as string;
  let i = start + 1;
  while (i < text.length && text[i] !== quote) i += quote === '"' && text[i] === '\\' ? 2 : 1;
  if (i >= text.length) fail('unterminated string');
  const raw = text.slice(start, i + 1);
  return { value: quote === '`' ? raw.slice(1, -1) : (JSON.parse(raw) as string), end: i + 1 };
}

export function tokenize(text: string, template: string, line: number): Token[] {
  const fail = (message: string): never => {
    throw new TemplateError(template, line, message);
  };
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '|' || c === '(' || c === ')' || c === ',') {
      tokens.push({ kind: c === '|' ? 'pipe' : c === '(' ? 'open' : c === ')' ? 'close' : 'comma' });
      i++;
    } else if (c === ':' && text[i + 1] === '=') {
      tokens.push({ kind: 'declare' });
      i += 2;
    } else if (c === '=') {
      tokens.push({ kind: 'assign' });
      i++;
    } else if (c === '"' || c === '`') {
      const s = readString(text, i, fail);
      tokens.push({ kind: 'string', value: s.value });
      i = s.end;
    } else if (/[-0-9]/.test(c)) {
      const match = /^-?\d+(\.\d+)?/.exec(text.slice(i)) ?? fail(`unexpected "${c}" in action`);
      tokens.push({ kind: 'number', value: Number(match[0]) });
      i += match[0].length;
    } else if (c === '.') {
      const { chain, end } = readChain(text, i);
      tokens.push({ kind: 'field', chain });
      i = chain.length === 0 ? i + 1 : end;
    } else if (c === '$') {
      let j = i + 1;
      while (j < text.length && identifierChars.test(text[j] as string)) j++;
      const { chain, end } = readChain(text, j);
      tokens.push({ kind: 'variable', name: text.slice(i, j), chain });
      i = end;
    } else if (identifierChars.test(c)) {
      let j = i;
      while (j < text.length && identifierChars.test(text[j] as string)) j++;
      tokens.push({ kind: 'identifier', name: text.slice(i, j) });
      i = j;
    } else {
      fail(`unexpected "${c}" in action`);
    }
  }
  return tokens;
}
