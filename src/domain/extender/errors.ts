/**
 * A request the extender cannot use: a body that is not ExtenderArgs (the shell's decoding) or a pod built
 * to be expensive (pod-facts.ts). The message names the field, the value and what is accepted; a 400.
 */
export class ExtenderArgsError extends Error {
  constructor(message: string) {
    super(`decoding ExtenderArgs: ${message}`);
    this.name = 'ExtenderArgsError';
  }
}
