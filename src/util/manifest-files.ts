/**
 * Reads Kubernetes manifests the way `kubectl apply -f` does: files, directories (recursively: .yaml,
 * .yml, .json) or `-` (standard input, read by the caller); JSON or multi-document YAML, `kind: List`
 * flattened. Each object keeps where it came from so a command can name the file and document of a bad
 * object; a bad document never hides the others.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { loadYamlDocument, YamlException } from './yaml12.js';

export interface ManifestObject {
  /** `file.yaml#2` (1-based document index), or `file.yaml#2.items[0]` for List members. */
  source: string;
  object: Record<string, unknown> & { apiVersion?: unknown; kind?: unknown; metadata?: unknown };
}

export interface ManifestError {
  source: string;
  message: string;
}

export interface ManifestSet {
  objects: ManifestObject[];
  errors: ManifestError[];
}

const MANIFEST_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/** Where a document starts in the text: its character offset and 0-based line. */
interface DocumentSpan {
  text: string;
  line: number;
}

/**
 * Splits a YAML stream at its document markers. A `---` or `...` at the start of a line always ends the
 * document before it (YAML forbids them as content there, block scalars included), so each document can be
 * parsed on its own: one bad document never hides the others. A leading part holding only comments or
 * directives is not a document of its own.
 */
export function splitYamlDocuments(text: string): DocumentSpan[] {
  const spans: DocumentSpan[] = [];
  const marker = /^(---|\.\.\.)(?=[ \t\r\n]|$)/gm;
  let start = 0;
  let startLine = 0;
  let line = 0;
  let lineCountedTo = 0;
  const lineAt = (offset: number): number => {
    for (let i = text.indexOf('\n', lineCountedTo); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
    lineCountedTo = offset;
    return line;
  };
  const push = (end: number): void => {
    const part = text.slice(start, end);
    if (spans.length > 0 || !isPreamble(part)) spans.push({ text: part, line: startLine });
  };
  for (let m = marker.exec(text); m !== null; m = marker.exec(text)) {
    const at = lineAt(m.index);
    if (m[1] === '---') {
      if (m.index > start) push(m.index);
      start = m.index;
      startLine = at;
    } else {
      push(m.index);
      const next = text.indexOf('\n', m.index);
      start = next === -1 ? text.length : next + 1;
      startLine = at + 1;
    }
  }
  if (start < text.length) push(text.length);
  return spans;
}

/** Blank lines, comments and %directives only: what may precede a stream's first `---`. */
function isPreamble(part: string): boolean {
  return part.split('\n').every((l) => /^\s*(#.*|%.*)?$/.test(l));
}

const looksLikeJson = (text: string): boolean => /^\s*[{[]/.test(text);

/**
 * Parses one manifest text: JSON (an object, a List, kubectl's `-o json`) through JSON.parse, anything else
 * as a YAML 1.2 stream; documents that are empty (e.g. a trailing `---`) are skipped.
 */
export function parseManifests(rawText: string, file: string): ManifestSet {
  const result: ManifestSet = { objects: [], errors: [] };
  const text = rawText.charCodeAt(0) === 0xfeff ? rawText.slice(1) : rawText;
  if (looksLikeJson(text)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined; // flow-style YAML also starts with `{`: the YAML path below reads it or says why not
    }
    if (value !== undefined) {
      addObject(value, `${file}#1`, result);
      return result;
    }
  }
  splitYamlDocuments(text).forEach((span, i) => parseYamlDocument(span, `${file}#${i + 1}`, result));
  return result;
}

function parseYamlDocument(span: DocumentSpan, source: string, into: ManifestSet): void {
  let value: unknown;
  try {
    value = loadYamlDocument(span.text);
  } catch (err) {
    into.errors.push({ source, message: `parsing YAML: ${yamlErrorMessage(err, span.line)}` });
    return;
  }
  if (value === null || value === undefined) return;
  addObject(value, source, into);
}

/** js-yaml's reason with the line and column in the whole file, on one line. */
function yamlErrorMessage(err: unknown, lineOffset: number): string {
  if (!(err instanceof YamlException)) return err instanceof Error ? err.message : String(err);
  const mark = err.mark as { line?: number; column?: number } | undefined;
  const where = mark?.line === undefined ? '' : ` at line ${lineOffset + mark.line + 1}, column ${(mark.column ?? 0) + 1}`;
  return `${err.reason}${where}`;
}

function addObject(value: unknown, source: string, into: ManifestSet): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    into.errors.push({
      source,
      message: `expected an object with apiVersion and kind, got ${Array.isArray(value) ? 'a list' : typeof value}`,
    });
    return;
  }
  const object = value as ManifestObject['object'];
  if (typeof object.kind === 'string' && object.kind.endsWith('List') && Array.isArray(object.items)) {
    (object.items as unknown[]).forEach((item, j) => addObject(item, `${source}.items[${j}]`, into));
    return;
  }
  if (typeof object.apiVersion !== 'string' || typeof object.kind !== 'string') {
    into.errors.push({ source, message: 'missing apiVersion or kind (both are required strings)' });
    return;
  }
  into.objects.push({ source, object });
}

/** `-f -`: the documents of standard input are named `stdin#N`. */
export const STDIN_PATH = '-';

/** Expands files and directories (sorted, for stable output) and parses every manifest in them. */
export function readManifestPaths(paths: readonly string[], options: { stdin?: string } = {}): ManifestSet {
  const result: ManifestSet = { objects: [], errors: [] };
  for (const file of expandPaths(paths, result)) {
    const text = file === STDIN_PATH ? stdinText(options, result) : readText(file, result);
    if (text === undefined) continue;
    const parsed = parseManifests(text, file === STDIN_PATH ? 'stdin' : file);
    result.objects.push(...parsed.objects);
    result.errors.push(...parsed.errors);
  }
  return result;
}

function stdinText(options: { stdin?: string }, result: ManifestSet): string | undefined {
  if (options.stdin === undefined) result.errors.push({ source: 'stdin', message: 'standard input was not read' });
  return options.stdin;
}

function readText(file: string, result: ManifestSet): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    result.errors.push({ source: file, message: `reading: ${(err as NodeJS.ErrnoException).code ?? String(err)}` });
    return undefined;
  }
}

function expandPaths(paths: readonly string[], result: ManifestSet): string[] {
  const files: string[] = [];
  for (const path of paths) {
    if (path === STDIN_PATH) {
      files.push(path);
      continue;
    }
    let isDirectory: boolean;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch {
      result.errors.push({ source: path, message: 'the path does not exist or cannot be read' });
      continue;
    }
    if (!isDirectory) {
      files.push(path);
      continue;
    }
    const entries = readdirSync(path, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    const nested = entries
      .filter((e) => e.isDirectory() || (e.isFile() && MANIFEST_EXTENSIONS.has(extname(e.name))))
      .map((e) => join(path, e.name));
    files.push(...expandPaths(nested, result));
  }
  return files;
}
