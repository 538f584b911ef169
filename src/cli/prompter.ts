// Questions on the terminal through @inquirer/prompts (loaded only when asked), behind a small seam for tests.
import type { Streams } from './io.js';

export interface Prompter {
  confirm(message: string): Promise<boolean>;
  /** Free text typed by the user. */
  input(message: string): Promise<string>;
}

export function terminalPrompter(streams: Streams): Prompter {
  const context = { input: streams.stdin, output: streams.stderr, clearPromptOnDone: false };
  return {
    async confirm(message) {
      const { confirm } = await import('@inquirer/prompts');
      return confirm({ message, default: false }, context);
    },
    async input(message) {
      const { input } = await import('@inquirer/prompts');
      return input({ message }, context);
    },
  };
}
