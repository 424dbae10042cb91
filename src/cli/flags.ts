/**
 * kubectl-style flag parsing shared by the commands: node's parseArgs underneath, its errors turned into one
 * line that names the flag and the fix (`unknown flag: --bogus; see 'karpenter-eu plan --help'`), exit 2.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The flag a parseArgs error is about: `'--bogus'` or `'-f, --filename <value>'` → `--bogus`, `--filename`. */
function flagOf(message: string): string {
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? '';
  return (quoted.split(',').at(-1) ?? quoted).trim().split(' ')[0] ?? quoted;
}

function usageErrorFor(command: string, err: unknown): UsageError {
  const code = (err as { code?: string }).code;
  const message = err instanceof Error ? err.message : String(err);
  const help = `see 'karpenter-eu ${command} --help'`;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return new UsageError(`unknown flag: ${flagOf(message)}; ${help}`);
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return new UsageError(`flag needs an argument: ${flagOf(message)}; ${help}`);
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
    return new UsageError(`unexpected argument ${JSON.stringify(/'([^']+)'/.exec(message)?.[1] ?? '')}; ${help}`);
  return new UsageError(`${command}: ${message.split('\n')[0]}; ${help}`);
}

export function parseFlags<O extends Options>(command: string, argv: string[], options: O, allowPositionals = false) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals });
  } catch (err) {
    throw usageErrorFor(command, err);
  }
}

/** Every command's output formats; the default is always `table`. */
export type OutputFormat = 'table' | 'wide' | 'json' | 'yaml' | 'name';

/** `-o` value, case-insensitive, checked against what the command supports. */
export function outputFormat<F extends OutputFormat>(command: string, value: string | undefined, accepted: readonly F[]): F | 'table' {
  if (value === undefined) return 'table';
  const format = value.toLowerCase() as F;
  if (!accepted.includes(format))
    throw new UsageError(`unknown output format "${value}" for -o/--output of ${command}; accepted: ${accepted.join(', ')}`);
  return format;
}

export const outputFlag = { output: { type: 'string', short: 'o' } } as const;
export const helpFlag = { help: { type: 'boolean', short: 'h' } } as const;
