/**
 * Writes manifests/crds/<group>_<plural>.yaml from the schemas in src/apis.
 *   npm run gen:crds            regenerate the files
 *   npm run gen:crds -- --check exit 1, naming the stale files, when a checked-in file differs
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CrdDefinitions } from '../src/apis/crd/registry.js';
import { crdFileName, renderCrd } from '../src/apis/crd/render.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const crdDir = join(repoRoot, 'manifests', 'crds');

interface StaleFile {
  path: string;
  reason: 'missing' | 'differs';
}

function staleFiles(): StaleFile[] {
  const stale: StaleFile[] = [];
  for (const def of CrdDefinitions) {
    const path = join(crdDir, crdFileName(def));
    if (!existsSync(path)) stale.push({ path, reason: 'missing' });
    else if (readFileSync(path, 'utf8') !== renderCrd(def)) stale.push({ path, reason: 'differs' });
  }
  return stale;
}

function main(argv: string[]): number {
  const unknown = argv.filter((arg) => arg !== '--check');
  if (unknown.length > 0) {
    console.error(`generating CRDs: unknown argument ${JSON.stringify(unknown[0])}: accepted: --check`);
    return 2;
  }
  if (argv.includes('--check')) {
    const stale = staleFiles();
    if (stale.length === 0) return 0;
    for (const file of stale)
      console.error(`${relative(repoRoot, file.path)}: ${file.reason === 'missing' ? 'missing' : 'stale (differs from src/apis)'}`);
    console.error('CRDs are out of date with src/apis: run `npm run gen:crds` and commit manifests/crds/');
    return 1;
  }
  mkdirSync(crdDir, { recursive: true });
  for (const def of CrdDefinitions) {
    const path = join(crdDir, crdFileName(def));
    writeFileSync(path, renderCrd(def));
    console.log(`wrote ${relative(repoRoot, path)}`);
  }
  return 0;
}

process.exitCode = main(process.argv.slice(2));
