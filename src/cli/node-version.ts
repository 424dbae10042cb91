/**
 * Whether this Node.js can run the package: the bin asks before it loads any dependency, so an older Node ends
 * with one line saying what is needed instead of a failure from deep inside a library. Imports only Node's own
 * modules: it must load on any Node.
 */
import { readFileSync } from 'node:fs';

/** `>=22.19` (the package's engines.node) → [22, 19, 0]; undefined for any other form. */
function minimum(range: string): number[] | undefined {
  const match = /^\s*>=\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(range);
  return match ? [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)] : undefined;
}

/** The message for a Node below `range`, or undefined when `version` (process.versions.node) satisfies it. */
export function unsupportedNode(version: string, range: string, execPath: string): string | undefined {
  const needed = minimum(range);
  if (!needed) return undefined;
  const have = version.split('.').map((part) => Number.parseInt(part, 10) || 0);
  for (let i = 0; i < 3; i++) {
    if ((have[i] ?? 0) > (needed[i] as number)) return undefined;
    if ((have[i] ?? 0) < (needed[i] as number)) {
      return (
        `karpenter-eu needs Node.js ${range.trim()}, this is ${version} (${execPath}); ` +
        'run it with the Node the Makefile installs (make build, then node_modules/.bin/node dist/src/cli/bin.js) ' +
        'or from the image (ghcr.io/karpenter-eu/karpenter-eu)'
      );
    }
  }
  return undefined;
}

/** Ends the process with that message and exit 2 when this Node is below the engines of `packageJson` (a file URL). */
export function exitOnUnsupportedNode(packageJson: URL): void {
  const pkg = JSON.parse(readFileSync(packageJson, 'utf8')) as { engines?: { node?: string } };
  const unsupported = unsupportedNode(process.versions.node, pkg.engines?.node ?? '', process.execPath);
  if (!unsupported) return;
  process.stderr.write(`error: ${unsupported}\n`);
  process.exit(2);
}
