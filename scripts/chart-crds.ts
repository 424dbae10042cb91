/**
 * Copies the generated CRDs (manifests/crds/, from `npm run gen:crds`) into the chart's crds/ folder, which
 * Helm installs before the templates (first install only), and into the templates/ of the CRD chart
 * (manifests/chart-crd/), which `helm upgrade` does update. The copies are never edited by hand.
 *   npx tsx scripts/chart-crds.ts           copy
 *   npx tsx scripts/chart-crds.ts --check   exit 1, naming each stale, missing or extra file
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const sourceDir = join(repoRoot, 'manifests', 'crds');
/** Where the copies go, relative to manifests/. */
const targets = [join('chart', 'crds'), join('chart-crd', 'templates')];

interface Difference {
  /** `chart/crds/<file>` or `chart-crd/templates/<file>`, relative to manifests/. */
  file: string;
  problem: 'missing' | 'stale' | 'extra';
}

function yamlFiles(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.yaml'))
        .sort()
    : [];
}

function differencesIn(target: string): Difference[] {
  const targetDir = join(repoRoot, 'manifests', target);
  const sources = yamlFiles(sourceDir);
  const copies = new Set(yamlFiles(targetDir));
  const differences: Difference[] = sources.flatMap((file): Difference[] => {
    if (!copies.has(file)) return [{ file: join(target, file), problem: 'missing' }];
    const same = readFileSync(join(sourceDir, file), 'utf8') === readFileSync(join(targetDir, file), 'utf8');
    return same ? [] : [{ file: join(target, file), problem: 'stale' }];
  });
  for (const file of copies) if (!sources.includes(file)) differences.push({ file: join(target, file), problem: 'extra' });
  return differences;
}

export function chartCrdDifferences(): Difference[] {
  return targets.flatMap(differencesIn);
}

function main(argv: string[]): number {
  const unknown = argv.filter((arg) => arg !== '--check');
  if (unknown.length > 0) {
    console.error(`copying chart CRDs: unknown argument ${JSON.stringify(unknown[0])}; accepted: --check`);
    return 2;
  }
  const differences = chartCrdDifferences();
  if (argv.includes('--check')) {
    for (const d of differences) console.error(`manifests/${d.file}: ${d.problem}`);
    if (differences.length > 0) console.error("the charts' CRDs differ from manifests/crds/: run `npx tsx scripts/chart-crds.ts`");
    return differences.length === 0 ? 0 : 1;
  }
  for (const target of targets) mkdirSync(join(repoRoot, 'manifests', target), { recursive: true });
  for (const d of differences) {
    const copy = join(repoRoot, 'manifests', d.file);
    if (d.problem === 'extra') rmSync(copy);
    else copyFileSync(join(sourceDir, basename(d.file)), copy);
    console.log(`${d.problem === 'extra' ? 'removed' : 'wrote'} manifests/${d.file}`);
  }
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
