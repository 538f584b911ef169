// A Sink that collects everything written, for output tests.
import type { Sink } from '../../src/cli/output/render.js';

export interface StringSink extends Sink {
  readonly text: string;
}

export function stringSink(): StringSink {
  let text = '';
  return {
    get text() {
      return text;
    },
    async write(chunk: string) {
      text += chunk;
    },
  };
}
