/**
 * What `plan` and `validate` read from `-f`: files, directories and `-` (standard input), checked before
 * anything is parsed so a typo in a path is one kubectl-style line and exit 2, not a partial result.
 */
import { existsSync } from 'node:fs';
import { readManifestPaths, STDIN_PATH as STDIN, type ManifestSet } from '../util/manifest-files.js';
import { type CommandIO, InputError, UsageError } from './errors.js';

export async function readInputs(command: string, paths: readonly string[], io: CommandIO): Promise<ManifestSet> {
  const missing = paths.find((p) => p !== STDIN && !existsSync(p));
  if (missing !== undefined) throw new InputError(`the path "${missing}" does not exist; pass a file, a directory or - for standard input`);
  const fromStdin = paths.filter((p) => p === STDIN).length;
  if (fromStdin > 1) throw new UsageError(`${command}: -f - (standard input) can be given once`);
  if (fromStdin === 0) return readManifestPaths(paths);
  if (!io.readStdin) throw new UsageError(`${command}: -f - needs a standard input to read; pass a file or a directory instead`);
  return readManifestPaths(paths, { stdin: await io.readStdin() });
}
