/**
 * Reads Kubernetes manifests the way `kubectl apply -f` does: files or directories (recursively:
 * .yaml, .yml, .json), multi-document YAML, `kind: List` flattened. Each object keeps where it came
 * from so a command can name the file and document of a bad object; a bad document never hides the
 * others.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { parseAllDocuments } from 'yaml';

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

/** Parses one manifest text; documents that are empty (e.g. a trailing `---`) are skipped. */
export function parseManifests(text: string, file: string): ManifestSet {
  const result: ManifestSet = { objects: [], errors: [] };
  const documents = parseAllDocuments(text, { prettyErrors: false });
  if (!Array.isArray(documents)) {
    result.errors.push({ source: file, message: 'parsing: not a YAML document stream' });
    return result;
  }
  documents.forEach((doc, i) => {
    const source = `${file}#${i + 1}`;
    if (doc.errors.length > 0) {
      const first = doc.errors[0];
      result.errors.push({ source, message: `parsing YAML: ${first?.message.split('\n')[0] ?? 'invalid document'}` });
      return;
    }
    const value: unknown = doc.toJS({ maxAliasCount: 100 });
    if (value === null || value === undefined) return;
    addObject(value, source, result);
  });
  return result;
}

function addObject(value: unknown, source: string, into: ManifestSet): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    into.errors.push({ source, message: `expected an object with apiVersion and kind, got ${Array.isArray(value) ? 'a list' : typeof value}` });
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

/** Expands files and directories (sorted, for stable output) and parses every manifest in them. */
export function readManifestPaths(paths: readonly string[]): ManifestSet {
  const result: ManifestSet = { objects: [], errors: [] };
  for (const file of expandPaths(paths, result)) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      result.errors.push({ source: file, message: `reading: ${(err as NodeJS.ErrnoException).code ?? String(err)}` });
      continue;
    }
    const parsed = parseManifests(text, file);
    result.objects.push(...parsed.objects);
    result.errors.push(...parsed.errors);
  }
  return result;
}

function expandPaths(paths: readonly string[], result: ManifestSet): string[] {
  const files: string[] = [];
  for (const path of paths) {
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
