// Questions on the terminal through @inquirer/prompts (loaded only when asked), behind a small seam for tests.
import { CancelledError } from '../core/errors.js';
import type { Streams } from './io.js';

export interface Prompter {
  confirm(message: string): Promise<boolean>;
  /** Free text typed by the user. */
  input(message: string): Promise<string>;
}

/**
 * The answer to a question asked with @inquirer/prompts. While it asks, the terminal is in raw mode, so Ctrl-C is a
 * key it reads, not SIGINT: it ends the question with ExitPromptError, made here an interruption like any other
 * (exit 130), not a failure; so is the end of a question by `interrupt` (SIGINT or SIGTERM from elsewhere). Every
 * inquirer question is awaited through this.
 */
export async function answered<T>(question: Promise<T>, interrupt?: AbortSignal): Promise<T> {
  try {
    return await question;
  } catch (error) {
    if ((error as Error).name === 'ExitPromptError' || interrupt?.aborted)
      throw new CancelledError('interrupted');
    throw error;
  }
}

/** `signal`: the run's Ctrl-C, which also ends a question being asked. */
export function terminalPrompter(streams: Streams, signal?: AbortSignal): Prompter {
  // stdin is touched only when a question is asked: opening it costs every start-up milliseconds.
  const context = () => {
    // Asked after an interruption, inquirer would leave the terminal in raw mode: not asked at all.
    if (signal?.aborted) throw new CancelledError('interrupted');
    return { input: streams.stdin, output: streams.stderr, clearPromptOnDone: false, signal };
  };
  return {
    async confirm(message) {
      const { confirm } = await import('@inquirer/prompts');
      return answered(confirm({ message, default: false }, context()), signal);
    },
    async input(message) {
      const { input } = await import('@inquirer/prompts');
      return answered(input({ message }, context()), signal);
    },
  };
}
