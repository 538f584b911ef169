// Questions on the terminal through @inquirer/prompts (loaded only when asked), behind a small seam for tests.
import { CancelledError } from '../core/errors.js';
import type { Streams } from './io.js';

export interface Prompter {
  confirm(message: string): Promise<boolean>;
  /** Free text typed by the user. */
  input(message: string): Promise<string>;
}

/** Ctrl-C at a prompt is an interruption like any other (exit 130), not a failure. */
async function asked<T>(question: Promise<T>): Promise<T> {
  try {
    return await question;
  } catch (error) {
    if ((error as Error).name === 'ExitPromptError') throw new CancelledError('interrupted');
    throw error;
  }
}

export function terminalPrompter(streams: Streams): Prompter {
  // stdin is touched only when a question is asked: opening it costs every start-up milliseconds.
  const context = () => ({ input: streams.stdin, output: streams.stderr, clearPromptOnDone: false });
  return {
    async confirm(message) {
      const { confirm } = await import('@inquirer/prompts');
      return asked(confirm({ message, default: false }, context()));
    },
    async input(message) {
      const { input } = await import('@inquirer/prompts');
      return asked(input({ message }, context()));
    },
  };
}
