#!/usr/bin/env node
/** The package's bin: reads the process once and hands plain values to `main`. */
import { main } from './main.js';

// A reader that stops early (`karpenter-eu catalog … | head`) closes the pipe: that is success, said quietly.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  process.stderr.write(`error: writing the output: ${err.message}\n`);
  process.exit(1);
});

/** Whatever escapes the commands still ends as one line (the stack only with DEBUG set) and exit 1. */
function fatal(err: unknown): void {
  process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
  if (process.env.DEBUG && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
  process.exit(1);
}
process.on('uncaughtException', fatal);
process.on('unhandledRejection', fatal);

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: { ...process.env },
  readStdin,
}).then(
  (code) => {
    process.exitCode = code;
  },
  fatal,
);
