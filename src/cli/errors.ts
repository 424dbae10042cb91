/** Errors the CLI turns into a message and an exit code, never a stack trace. */
export class UsageError extends Error {
  readonly exitCode = 2;
}

/** Input that exists but cannot be used (unparsable YAML, unknown region…): exit 2 with the message. */
export class InputError extends Error {
  readonly exitCode = 2;
}

export interface CommandIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Environment as read once by the entry point (credentials, KUBECONFIG…). */
  env: Readonly<Record<string, string | undefined>>;
  /** The whole of standard input, for `-f -`; absent where there is none to read. */
  readStdin?: () => Promise<string>;
}

/** A sub-command: parses its own argv, returns the exit code. */
export type Command = (argv: string[], io: CommandIO) => Promise<number>;
