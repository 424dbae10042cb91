/** The test bed CLI's commands: the product's, and `demo`, loaded lazily like them. */
import { type CommandTable, productCommands } from '../cli/main.js';

export const testbedCommands: CommandTable = {
  ...productCommands,
  demo: {
    summary: 'scripted scenario on a local simulated cluster + cloud emulators, with a cost summary',
    load: async () => (await import('./demo/command.js')).demoCommand,
  },
};
