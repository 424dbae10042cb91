/** The CLI process once Node's version is checked (the bins): reads the process once and hands plain values to `main`. */
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CommandTable, main } from './main.js';

/** Where compiled code is kept between runs: the user's cache dir (XDG_CACHE_HOME, ~/.cache), else the OS temp dir. */
function compileCacheDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CACHE_HOME || (env.HOME ? join(env.HOME, '.cache') : undefined);
  return base ? join(base, 'karpenter-eu', 'compile-cache') : join(tmpdir(), 'karpenter-eu-compile-cache');
}

/** Whatever escapes the commands still ends as one line (the stack only with DEBUG set) and exit 1. */
function fatal(err: unknown): void {
  process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
  if (process.env.DEBUG && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
  process.exit(1);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Runs the command named by argv from `commands` (the product's unless a bin passes its own) and sets the exit code. */
export function start(commands?: CommandTable): void {
  // Every start compiles a few hundred modules; Node's on-disk code cache spares part of that on later runs
  // (NODE_COMPILE_CACHE=DIR takes precedence, NODE_DISABLE_COMPILE_CACHE=1 turns it off). A directory that
  // cannot be written only means no cache: Node says so in the status it returns, it does not throw.
  (module as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache?.(compileCacheDir(process.env));

  // A reader that stops early (`karpenter-eu catalog … | head`) closes the pipe: that is success, said quietly.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    process.stderr.write(`error: writing the output: ${err.message}\n`);
    process.exit(1);
  });
  process.on('uncaughtException', fatal);
  process.on('unhandledRejection', fatal);

  const io = { stdout: (text: string) => process.stdout.write(text), stderr: (text: string) => process.stderr.write(text) };
  main(process.argv.slice(2), { ...io, env: { ...process.env }, readStdin }, commands).then((code) => {
    process.exitCode = code;
  }, fatal);
}
