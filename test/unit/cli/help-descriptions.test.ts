// Help written for users: each command's help leads with what it does in plain words; what the API document does not
// show (the assumed path or payload) is said, but last, never as the first thing a user reads.
import { describe, expect, it } from 'vitest';
import { type CommandDef, isNoun, type NounDef } from '../../../src/cli/command.js';
import { loadCommands } from '../../../src/commands/index.js';

function walk(
  defs: readonly (CommandDef | NounDef)[],
  parent: string[] = [],
): [string, CommandDef | NounDef][] {
  return defs.flatMap((def): [string, CommandDef | NounDef][] => {
    const path = [...parent, def.name];
    return [[path.join(' '), def], ...(isNoun(def) ? walk(def.commands, path) : [])];
  });
}

const described = walk(await loadCommands()).filter(([, def]) => def.description !== undefined);
const CAVEAT = /not shown|does not show|API document|assumed/i;

/** The first sentence of a text (up to the first full stop followed by a space or the end). */
const firstSentence = (text: string) => /^[\s\S]*?\.(?=\s|$)/.exec(text)?.[0] ?? text;

describe('command descriptions', () => {
  it('there are descriptions to check', () => {
    expect(described.length).toBeGreaterThan(20);
  });

  it.each(described)(
    '%s: the first sentence says what it does, not what the API document leaves out',
    (_, def) => {
      const first = firstSentence(def.description!.replace(/\n/g, ' '));
      expect(first).not.toMatch(CAVEAT);
      // Plain words first: a verb or a noun, not a request line, a path or a parenthesis.
      expect(first).toMatch(/^[A-Z][a-z]/);
    },
  );

  it.each(described.filter(([, def]) => /The path and payload are not shown/.test(def.description!)))(
    '%s: the assumed request is the last line',
    (_, def) => {
      const lines = def.description!.split('\n');
      expect(lines.at(-1)).toMatch(/^The path and payload are not shown in the API document \(assumed/);
      expect(lines.slice(0, -1).join('\n')).not.toMatch(/assumed/);
    },
  );

  it('erasure get says first what it shows, and last what is assumed', () => {
    const def = described.find(([path]) => path === 'erasure get')?.[1];
    const lines = def?.description?.split('\n') ?? [];
    expect(lines[0]).toMatch(/^Show one data-erasure request: its status/);
    expect(lines.at(-1)).toBe(
      'The path and payload are not shown in the API document (assumed, after the list endpoint): GET /v1/data-erasure-requests/{id}. ' +
        'If your server differs, send the request it expects with clinic api, e.g. `clinic api /v1/data-erasure-requests/4` (see clinic api --help).',
    );
  });
});
