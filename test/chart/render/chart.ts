/**
 * Renders a Helm chart directory as `helm template --include-crds` would, for tests: values.yaml merged with
 * overrides, every template parsed (named templates shared across files), `_*.tpl` partials not output,
 * NOTES.txt rendered apart, each output split into YAML documents.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import YAML from 'yaml';
import { type ParsedTemplate, type TemplateNode } from './ast.js';
import { Evaluator } from './evaluator.js';
import { knownFunctionNames } from './functions.js';
import { parseTemplate } from './parser.js';
import { mergeValues, type Value } from './values.js';

export interface RenderOptions {
  releaseName?: string;
  namespace?: string;
  /** Like `--set`/`-f`: merged over values.yaml. */
  values?: Record<string, unknown>;
}

export interface RenderedDocument {
  /** `crds/<file>` or `templates/<file>`. */
  source: string;
  object: Record<string, unknown>;
}

export interface RenderedChart {
  documents: RenderedDocument[];
  notes: string;
  values: Value;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
}

/** Chart.yaml keys as templates see them: `.Chart.Name`, `.Chart.AppVersion`. */
function chartObject(metadata: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(metadata).map(([k, v]) => [k.charAt(0).toUpperCase() + k.slice(1), v]));
}

export function splitDocuments(source: string, text: string): RenderedDocument[] {
  return text
    .split(/^---[ \t]*$/m)
    .map((doc) => YAML.parse(doc, { uniqueKeys: true }) as unknown)
    .filter((object): object is Record<string, unknown> => object !== null && object !== undefined)
    .map((object) => {
      if (typeof object !== 'object' || Array.isArray(object)) throw new Error(`parsing ${source}: a document is not a YAML mapping`);
      return { source, object };
    });
}

export async function renderChart(chartDir: string, options: RenderOptions = {}): Promise<RenderedChart> {
  const metadata = YAML.parse(readFileSync(join(chartDir, 'Chart.yaml'), 'utf8')) as Record<string, unknown>;
  const chartName = String(metadata.name);
  const defaults = (YAML.parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8')) ?? {}) as Value;
  const values = mergeValues(defaults, options.values ?? {});
  const templatesDir = join(chartDir, 'templates');
  const parsed: ParsedTemplate[] = filesUnder(templatesDir).map((path) =>
    parseTemplate(`${chartName}/templates/${relative(templatesDir, path)}`, readFileSync(path, 'utf8'), knownFunctionNames),
  );
  const defines = new Map<string, TemplateNode[]>();
  for (const template of parsed) for (const [name, body] of template.defines) defines.set(name, body);
  const evaluator = new Evaluator(defines);
  const data = {
    Values: values,
    Release: { Name: options.releaseName ?? chartName, Namespace: options.namespace ?? 'karpenter', Service: 'Helm', IsInstall: true, IsUpgrade: false, Revision: 1 },
    Chart: chartObject(metadata),
  };
  const documents: RenderedDocument[] = filesUnder(join(chartDir, 'crds')).flatMap((path) =>
    splitDocuments(`crds/${relative(join(chartDir, 'crds'), path)}`, readFileSync(path, 'utf8')),
  );
  let notes = '';
  for (const template of parsed) {
    const file = template.name.slice(`${chartName}/`.length);
    const base = file.split('/').pop() as string;
    if (base.startsWith('_')) continue;
    const text = await evaluator.render(template.body, data);
    if (base === 'NOTES.txt') notes = text;
    else documents.push(...splitDocuments(file, text));
  }
  return { documents, notes, values };
}

/** Renders one template source on its own (for tests of the renderer itself). */
export async function renderString(source: string, data: Value, name = 'test'): Promise<string> {
  const template = parseTemplate(name, source, knownFunctionNames);
  return new Evaluator(template.defines).render(template.body, data);
}
