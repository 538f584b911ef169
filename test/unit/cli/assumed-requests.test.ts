// Where a command sends a request the API document does not show (its path, payload or paging assumed), its help
// says so and how to reach a server that differs: the same request by hand with `clinic api`.
import { describe, expect, it } from 'vitest';
import { type CommandDef, isNoun, type NounDef } from '../../../src/cli/command.js';
import { loadCommands } from '../../../src/commands/index.js';

/** The commands (and the noun) built on an assumed request. */
const ASSUMED = [
  'erasure get',
  'erasure create',
  'erasure resend',
  'erasure cancel',
  'erasure retry',
  'erasure certificate',
  'erasure watch',
  'sales stock-deduct',
  'ai-reports pdf',
  'conversations messages',
  'conversations agent',
];

function descriptions(defs: (CommandDef | NounDef)[], path: string[] = []): Map<string, string> {
  const found = new Map<string, string>();
  for (const def of defs) {
    const words = [...path, def.name];
    found.set(words.join(' '), def.description ?? '');
    if (isNoun(def)) for (const [key, text] of descriptions(def.commands, words)) found.set(key, text);
  }
  return found;
}

describe('help of a command built on an assumed request', () => {
  it.each(ASSUMED)(
    '%s: says it is assumed, and gives the clinic api request for a server that differs',
    async (name) => {
      const text = (descriptions(await loadCommands()).get(name) ?? '').replace(/\s+/g, ' ');
      expect(text).toMatch(/not shown in the API document[^]*assumed/);
      expect(text).toMatch(
        /If your server differs, send the request it expects with clinic api, e\.g\. `clinic api /,
      );
    },
  );
});
