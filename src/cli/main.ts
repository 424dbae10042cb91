/**
 * The `karpenter-eu` entry point: dispatches to a sub-command, prints errors as one clear line
 * (exit 2 for usage and input errors, 1 for failures) and never a stack trace unless DEBUG is set.
 * A command is one entry of a command table: a summary for the usage text and a lazy loader.
 */
import { type Command, type CommandIO, InputError, UsageError } from './errors.js';

/** Sub-commands by name; each is imported lazily so `catalog` does not load the Kubernetes client or the servers. */
export type CommandTable = Readonly<Record<string, { summary: string; load: () => Promise<Command> }>>;

/** What the package and the image run. `demo` is not among them: it lives with the test bed, built apart (src/testbed/bin.ts). */
export const productCommands: CommandTable = {
  catalog: {
    summary: 'print the instance types of a cloud/region with capacity, allocatable, labels and prices',
    load: async () => (await import('./commands/catalog.js')).catalogCommand,
  },
  validate: {
    summary: "offline admission: run the webhooks' mutate + validate on NodePools/NodeClasses in files",
    load: async () => (await import('./commands/validate.js')).validateCommand,
  },
  convert: {
    summary:
      "migration: a v1alpha5 Provisioner, the Scaleway GPU controller's labels, the OVHcloud provider's NodeClass → NodePool/NodeClass YAML",
    load: async () => (await import('./commands/convert.js')).convertCommand,
  },
  plan: {
    summary: 'offline provisioning plan: where pending pods would run and what new nodes would cost',
    load: async () => (await import('./commands/plan.js')).planCommand,
  },
  run: {
    summary: 'the service: webhooks, scheduler extender, metrics and (while leading) the controllers',
    load: async () => (await import('./commands/run.js')).runCommand,
  },
  version: { summary: 'print the version (also: --version)', load: async () => (await import('./commands/version.js')).versionCommand },
};

function usage(commands: CommandTable): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return [
    'usage: karpenter-eu <command> [options]',
    '',
    'commands:',
    ...lines,
    '',
    "run 'karpenter-eu <command> --help' for a command's options",
  ].join('\n');
}

/** Why `name` is not a command of this build, and what is. */
function unknownCommand(name: string, commands: CommandTable): string {
  const accepted = `accepted: ${Object.keys(commands).join(', ')}, --version; see 'karpenter-eu --help'`;
  if (name.startsWith('-')) return `unknown flag: ${name}; ${accepted}`;
  if (name === 'demo')
    return `unknown command "demo": the demo runs on the test bed, which this build does not ship; from a checkout: make demo; ${accepted}`;
  return `unknown command "${name}"; ${accepted}`;
}

export async function main(argv: string[], io: CommandIO, commands: CommandTable = productCommands): Promise<number> {
  const [first, ...rest] = argv;
  if (!first || first === '--help' || first === '-h' || first === 'help') {
    (first ? io.stdout : io.stderr)(usage(commands) + '\n');
    return first ? 0 : 2;
  }
  const name = first === '--version' ? 'version' : first;
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    io.stderr(`error: ${unknownCommand(name, commands)}\n`);
    return 2;
  }
  try {
    return await (
      await command.load()
    )(rest, io);
  } catch (err) {
    if (err instanceof UsageError || err instanceof InputError) {
      io.stderr(`error: ${err.message}\n`);
      return err.exitCode;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.stderr(`error: ${message}\n`);
    if (io.env.DEBUG && err instanceof Error && err.stack) io.stderr(err.stack + '\n');
    return 1;
  }
}
