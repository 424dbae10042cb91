/**
 * Copies the generated CRDs (manifests/crds/, from `npm run gen:crds`) into the chart's crds/ folder, which
 * Helm installs before the templates. The chart's copies are never edited by hand.
 *   npx tsx scripts/chart-crds.ts           copy
 *   npx tsx scripts/chart-crds.ts --check   exit 1, naming each stale, missing or extra file
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const sourceDir = join(repoRoot, 'manifests', 'crds');
const chartCrdDir = join(repoRoot, 'manifests', 'chart', 'crds');

interface Difference {
  file: string;
  problem: 'missing' | 'stale' | 'extra';
}

function yamlFiles(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort() : [];
}

export function chartCrdDifferences(): Difference[] {
  const sources = yamlFiles(sourceDir);
  const copies = new Set(yamlFiles(chartCrdDir));
  const differences: Difference[] = sources.flatMap((file): Difference[] => {
    if (!copies.has(file)) return [{ file, problem: 'missing' }];
    const same = readFileSync(join(sourceDir, file), 'utf8') === readFileSync(join(chartCrdDir, file), 'utf8');
    return same ? [] : [{ file, problem: 'stale' }];
  });
  for (const file of copies) if (!sources.includes(file)) differences.push({ file, problem: 'extra' });
  return differences;
}

function main(argv: string[]): number {
  const unknown = argv.filter((arg) => arg !== '--check');
  if (unknown.length > 0) {
    console.error(`copying chart CRDs: unknown argument ${JSON.stringify(unknown[0])}; accepted: --check`);
    return 2;
  }
  const differences = chartCrdDifferences();
  if (argv.includes('--check')) {
    for (const d of differences) console.error(`manifests/chart/crds/${d.file}: ${d.problem}`);
    if (differences.length > 0) console.error('the chart CRDs differ from manifests/crds/: run `npx tsx scripts/chart-crds.ts`');
    return differences.length === 0 ? 0 : 1;
  }
  mkdirSync(chartCrdDir, { recursive: true });
  for (const d of differences) {
    if (d.problem === 'extra') rmSync(join(chartCrdDir, d.file));
    else copyFileSync(join(sourceDir, d.file), join(chartCrdDir, d.file));
    console.log(`${d.problem === 'extra' ? 'removed' : 'wrote'} manifests/chart/crds/${d.file}`);
  }
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
