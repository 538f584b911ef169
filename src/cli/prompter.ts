// Questions on the terminal through @inquirer/prompts (loaded only when asked), behind a small seam for tests.
import { CancelledError, DeclinedError } from '../core/errors.js';
import type { Readable } from 'node:stream';
import type { Streams } from './io.js';

export interface Prompter {
  confirm(message: string): Promise<boolean>;
  /** Free text typed by the user. */
  input(message: string): Promise<string>;
}

/**
 * The answer to a question asked with @inquirer/prompts. While it asks, the terminal is in raw mode, so Ctrl-C is a
 * key it reads, not SIGINT: it ends the question with ExitPromptError, made here an interruption like any other
 * (exit 130), not a failure; so is the end of a question by `interrupt` (SIGINT or SIGTERM from elsewhere). Ctrl-D
 * on an empty answer ends the input: inquirer's line reader stops reading (pausing `input`) and leaves the question
 * open with nothing left to wait for, so the run would end with exit 0. That is a question left unanswered: a "no"
 * (exit 2, nothing sent). Every inquirer question is awaited through this.
 */
export async function answered<T>(
  question: Promise<T>,
  interrupt?: AbortSignal,
  input?: Pick<Readable, 'on' | 'off' | 'isPaused' | 'resume'> & { isRaw?: boolean },
  ctrlCTyped?: () => void,
): Promise<T> {
  let stopWatching = () => {};
  const inputEnded = new Promise<never>((_, reject) => {
    if (!input) return;
    // The reader pauses its input once the question is settled too: a pause is the end only if no answer follows.
    // Back from Ctrl-Z (fg), the reader pauses its input again but keeps the terminal raw, to read on: it is resumed
    // here (the reader would not), so the question goes on. Ended by Ctrl-D, it has left raw mode.
    const ended = () => {
      if (!input.isPaused()) return;
      if (input.isRaw === true) input.resume();
      else reject(new DeclinedError('cancelled: the input ended before an answer; nothing was sent'));
    };
    const paused = () => setImmediate(() => setImmediate(ended));
    input.on('pause', paused);
    stopWatching = () => input.off('pause', paused);
  });
  try {
    return await Promise.race([question, inputEnded]);
  } catch (error) {
    // Ctrl-C at the question: what it asked about was not done (the prompt comes before any change). Typed as a key
    // (no signal had ended it), it is told: the run then ends as a Ctrl-C the terminal turned into SIGINT would.
    const typed = (error as Error).name === 'ExitPromptError' && !interrupt?.aborted;
    if (typed) ctrlCTyped?.();
    if (typed || interrupt?.aborted)
      throw new CancelledError('interrupted at the question: nothing was changed');
    throw error;
  } finally {
    stopWatching();
  }
}

/** `signal`: the run's Ctrl-C, which also ends a question being asked; `ctrlCTyped`: told of Ctrl-C typed at one. */
export function terminalPrompter(streams: Streams, signal?: AbortSignal, ctrlCTyped?: () => void): Prompter {
  // stdin is touched only when a question is asked: opening it costs every start-up milliseconds.
  const context = () => {
    // Asked after an interruption, inquirer would leave the terminal in raw mode: not asked at all.
    if (signal?.aborted) throw new CancelledError('interrupted');
    return { input: streams.stdin, output: streams.stderr, clearPromptOnDone: false, signal };
  };
  // Ended by Ctrl-D, a question is left on its line: the error that follows starts a line of its own.
  const ask = async <T>(question: Promise<T>): Promise<T> => {
    try {
      return await answered(question, signal, streams.stdin, ctrlCTyped);
    } catch (error) {
      if (error instanceof DeclinedError) streams.stderr.write('\n');
      throw error;
    }
  };
  return {
    async confirm(message) {
      const { confirm } = await import('@inquirer/prompts');
      return ask(confirm({ message, default: false }, context()));
    },
    async input(message) {
      const { input } = await import('@inquirer/prompts');
      // Typed text is judged after (a typed confirmation may be refused): no tick for it, the question mark stays.
      return ask(input({ message, theme: { prefix: { done: '?' } } }, context()));
    },
  };
}
