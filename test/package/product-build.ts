/**
 * What `npm run build` (tsconfig.build.json) writes, computed without compiling: tsc emits its root files (the
 * config's include minus exclude) and every project file they import, statically or with `import()`, types
 * included, so an import of the test bed from product code would bring it into the build whatever `exclude`
 * says. The walk follows relative imports as NodeNext resolves them (`./x.js` is `./x.ts`); bare specifiers are
 * packages, which the build does not emit.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export interface BuildFiles {
  /** Project sources in the build, relative to the project root (`src/cli/bin.ts`, `package.json`…). */
  sources: string[];
  /** The files the build writes, relative to the project root (`dist/src/cli/bin.js`, `dist/package.json`…). */
  emitted: string[];
}

function readConfig(root: string, configFile: string): ts.ParsedCommandLine {
  const host: ts.ParseConfigFileHost = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(join(root, configFile), {}, host);
  if (!parsed) throw new Error(`${configFile}: not a TypeScript configuration`);
  return parsed;
}

/** The project file a relative specifier names, as NodeNext finds it from `from`. */
function resolveRelative(from: string, specifier: string): string {
  const target = resolve(dirname(from), specifier);
  const candidates = target.endsWith('.js') ? [target.replace(/\.js$/, '.ts'), target] : [target, `${target}.ts`];
  const found = candidates.find((file) => existsSync(file));
  if (!found) throw new Error(`${from}: cannot resolve ${specifier}`);
  return found;
}

function importsOf(file: string): string[] {
  if (!file.endsWith('.ts')) return [];
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return [...info.importedFiles, ...info.referencedFiles]
    .map((ref) => ref.fileName)
    .filter((specifier) => specifier.startsWith('./') || specifier.startsWith('../'))
    .map((specifier) => resolveRelative(file, specifier));
}

/** The output path of one source, as tsc names it under outDir (rootDir kept), with its source map. */
function outputsOf(source: string, options: ts.CompilerOptions, root: string): string[] {
  const outDir = options.outDir ?? root;
  const out = join(outDir, relative(options.rootDir ?? root, source));
  if (source.endsWith('.json')) return [out];
  const js = out.replace(/\.ts$/, '.js');
  return options.sourceMap ? [js, `${js}.map`] : [js];
}

export function buildFiles(root: string, configFile: string): BuildFiles {
  const config = readConfig(root, configFile);
  const seen = new Set<string>();
  const queue = config.fileNames.map((file) => resolve(file));
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file) || file.endsWith('.d.ts')) continue;
    seen.add(file);
    queue.push(...importsOf(file));
  }
  const sources = [...seen].sort();
  return {
    sources: sources.map((file) => relative(root, file)),
    emitted: sources.flatMap((file) => outputsOf(file, config.options, root)).map((file) => relative(root, file)),
  };
}
