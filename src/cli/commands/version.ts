/** `karpenter-eu version [-o json|yaml]` (and `karpenter-eu --version`): the version and the runtime it runs on. */
import { type Command } from '../errors.js';
import { helpFlag, outputFlag, outputFormat, parseFlags } from '../flags.js';
import { formatData } from '../output.js';
import { VERSION } from '../version.js';

const HELP = `usage: karpenter-eu version [-o json|yaml]

Prints the version of karpenter-eu and the Node.js runtime and platform it runs on.
`;

export const versionCommand: Command = async (argv, io) => {
  const { values } = parseFlags('version', argv, { ...outputFlag, ...helpFlag });
  if (values.help) {
    io.stdout(HELP);
    return 0;
  }
  const format = outputFormat('version', values.output, ['table', 'json', 'yaml'] as const);
  const info = { version: VERSION, node: process.version, platform: `${process.platform}/${process.arch}` };
  io.stdout(format === 'table' ? `karpenter-eu ${info.version} (node ${info.node}, ${info.platform})\n` : await formatData(format, info));
  return 0;
};
