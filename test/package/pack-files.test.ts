/**
 * What `npm pack` puts in the package, decided by npm itself from package.json's `files`, in a staging folder
 * holding the product build's files (as product-build.ts computes them) and, beside them, what must stay out:
 * sources, tests, the test bed's build. The pack, the install and the bin on a fresh folder are
 * test/package/pack-install.slow.ts (`npm run test:package`).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFiles } from './product-build.js';

const root = process.cwd();
const stage = mkdtempSync(join(tmpdir(), 'karpenter-eu-pack-'));
afterAll(() => rmSync(stage, { recursive: true, force: true }));

function place(file: string): void {
  mkdirSync(dirname(join(stage, file)), { recursive: true });
  writeFileSync(join(stage, file), '');
}

describe('the npm package', () => {
  const product = buildFiles(root, 'tsconfig.build.json').emitted;
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
    dependencies: Record<string, string>;
  };

  it('holds the product build, its bin and nothing else', () => {
    copyFileSync(join(root, 'package.json'), join(stage, 'package.json'));
    copyFileSync(join(root, 'README.md'), join(stage, 'README.md'));
    for (const file of product) place(file);
    const outside = [
      'src/cli/main.ts',
      'test/cli/validate.test.ts',
      'dist-testbed/src/testbed/bin.js',
      'manifests/examples/x.yaml',
      'Dockerfile',
    ];
    for (const file of outside) place(file);
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: stage, encoding: 'utf8' });
    const [report] = JSON.parse(out) as { files: { path: string }[] }[];
    const packed = (report?.files ?? []).map((f) => f.path).sort();
    expect(packed).toEqual([...product, 'package.json', 'README.md'].sort());
    expect(packed).toContain(pkg.bin['karpenter-eu']);
    expect(packed.filter((f) => f.includes('testbed'))).toEqual([]);
  });

  it('declares as dependencies every package the product build imports (type-only imports aside)', () => {
    const forms = [
      /^\s*(?:import|export)\s(?!type\s)[^;]*?from\s+'([^'.][^']*)'/gm,
      /^\s*import\s+'([^'.][^']*)'/gm,
      /\bimport\(\s*'([^'.][^']*)'\s*\)/g,
    ];
    const imported = new Set<string>();
    for (const source of buildFiles(root, 'tsconfig.build.json').sources.filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(join(root, source), 'utf8');
      for (const [, specifier = ''] of forms.flatMap((form) => [...text.matchAll(form)])) {
        if (specifier.startsWith('node:')) continue;
        imported.add(
          specifier
            .split('/')
            .slice(0, specifier.startsWith('@') ? 2 : 1)
            .join('/'),
        );
      }
    }
    expect(imported).toContain('@kubernetes/client-node');
    expect([...imported].filter((name) => !(name in pkg.dependencies)).sort()).toEqual([]);
  });
});
