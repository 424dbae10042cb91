// The bin on a Node.js older than the package's engines: one line saying what it needs and how to get it, exit 2,
// before any dependency loads (which would otherwise fail from deep inside a library). Run with the machine's own
// Node when it is older than 22 (the system Node of the build machines is 20).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unsupportedNode } from '../../src/cli/node-version.js';

const engines = (JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } }).engines.node;

/** A node binary on PATH (or /usr/bin) whose major version is below 22. */
function olderNode(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/bin', '/usr/local/bin'];
  for (const dir of dirs) {
    const candidate = join(dir, 'node');
    if (!existsSync(candidate)) continue;
    const version = execFileSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
    if (Number(version.split('.')[0]) < 22) return candidate;
  }
  return undefined;
}

describe('the Node.js version check', () => {
  it.each([
    ['20.20.2', false],
    ['22.18.9', false],
    ['22.19.0', true],
    ['22.23.3', true],
    ['24.0.0', true],
  ])('Node %s against >=22.19: accepted %s', (version, accepted) => {
    expect(unsupportedNode(version, '>=22.19', '/usr/bin/node') === undefined).toBe(accepted);
  });

  const node = olderNode();
  it.skipIf(!node)('the bin on an older Node says in one line what it needs and how to get it, and exits 2', () => {
    const run = spawnSync(node as string, ['--import', 'tsx', 'src/cli/bin.ts', 'validate', '-f', 'manifests/examples'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    });
    const version = execFileSync(node as string, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `error: karpenter-eu needs Node.js ${engines}, this is ${version} (${node}); run it with the Node the Makefile installs ` +
        '(make build, then node_modules/.bin/node dist/src/cli/bin.js) or from the image (ghcr.io/karpenter-eu/karpenter-eu)\n',
    );
  });
});
