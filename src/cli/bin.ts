#!/usr/bin/env node
/**
 * The package's bin. It checks the Node.js version before anything else loads (the dependencies need the
 * engines' Node and fail obscurely on an older one), then loads the CLI: every import past the check is dynamic.
 */
import { readFileSync } from 'node:fs';
import { unsupportedNode } from './node-version.js';

// ../../package.json from src/cli (tsx) and from dist/src/cli (the build emits dist/package.json).
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines?: { node?: string } };
const unsupported = unsupportedNode(process.versions.node, pkg.engines?.node ?? '', process.execPath);
if (unsupported) {
  process.stderr.write(`error: ${unsupported}\n`);
  process.exit(2);
}
await import('./start.js');
