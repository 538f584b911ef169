// Every command whose spec declares a confirmation, found by walking the declarations: refused without --yes and a
// terminal (exit 2, nothing sent), and on a terminal asked before anything is written.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeTransport } from '../../helpers/fake-transport.js';
import type { Prompter } from '../../../src/cli/prompter.js';
import type { CommandDef } from '../../../src/cli/command.js';
import { declaredCommands } from '../../helpers/declared-commands.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { runInProcess } from '../../helpers/in-process.js';
import { fakeClock } from '../../helpers/fake-clock.js';
import { BASE_URL, fakeReply, newFakeTransport, type SeenRequest } from '../../helpers/mock-api.js';

const confirming = (await declaredCommands()).filter(({ def }) => def.confirm);

/** An example's words after `clinic`, as a shell would split them (plain double or single quotes). */
const words = (example: string) =>
  [...example.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '').slice(1);

/** The command's first example that confirms: one that neither answers yes nor only shows the request. */
function confirmingExample(def: CommandDef): string[] {
  const example = def.examples.map(words).find((argv) => !argv.some((w) => /^(--yes|-y|--dry-run)$/.test(w)));
  if (!example) throw new Error(`${def.name}: no example without --yes or --dry-run to try`);
  return example;
}

let env: Record<string, string>;
let transport: FakeTransport;
let seen: SeenRequest[];
beforeEach(async () => {
  const dir = await tempDir('clinic-confirm-');
  env = { CLINIC_CONFIG_DIR: dir, CLINIC_BASE_URL: BASE_URL, CLINIC_TOKEN: 'tok', CLINIC_TENANT: '7' };
  transport = newFakeTransport();
  seen = [];
  // Any read is answered with a record whose state allows every action, so the command gets as far as it asks.
  // Writes have no route: one sent would fail the command with a network error, not the exit codes below.
  transport.on(
    'GET',
    () => true,
    ({ method, path, headers }) => {
      seen.push({ method, path, headers });
      const allows = { resend: true, cancel: true, retry: true, certificate: true };
      return fakeReply({
        status: 200,
        body: { success: true, data: { id: 12, status: 'verified', state_allows: allows } },
      });
    },
    { persist: true },
  );
});

const run = (argv: string[], options: { terminal?: boolean; prompter?: Prompter } = {}) =>
  runInProcess(argv, {
    env,
    transport,
    clock: fakeClock(),
    terminal: options.terminal,
    deps: options.prompter ? { prompter: options.prompter } : {},
  });

describe('declared confirmations', () => {
  it('are declared by every destructive command', () => {
    const names = confirming.map(({ path }) => path.join(' '));
    for (const destructive of ['erasure create', 'erasure cancel', 'erasure retry', 'sales stock-deduct'])
      expect(names).toContain(destructive);
  });

  describe.each(confirming)('$path.1: $def.confirm.action', ({ path, def }) => {
    const argv = confirmingExample(def);

    it('is refused without --yes and without a terminal, before any request', async () => {
      expect(argv.slice(0, path.length)).toEqual(path);
      const result = await run(argv);
      // The refusal names the command as it is typed (`sales stock-deduct`, not `stock-deduct`).
      expect(result.stderr).toBe(
        `error: ${path.join(' ')} needs a confirmation and there is no terminal to ask on: pass --yes\n`,
      );
      expect(result.code).toBe(2);
      expect(seen).toEqual([]);
    });

    it('asks on a terminal; the answer no sends nothing and exits 2', async () => {
      const asked: string[] = [];
      const prompter: Prompter = {
        confirm: async (message) => (asked.push(message), false),
        input: async (message) => (asked.push(message), 'no'),
      };
      const result = await run(argv, { terminal: true, prompter });
      expect(asked).toHaveLength(1);
      expect(result.code).toBe(2);
      // The question of a typed confirmation is a line of its own before the prompt; then the one error line.
      expect(result.stderr).toMatch(/(^|\n)error: cancelled: .*nothing was sent\n$/);
      expect(seen.filter(({ method }) => method !== 'GET')).toEqual([]);
    });

    it('runs with --dry-run without asking', async () => {
      const refuse = async (): Promise<never> => {
        throw new Error('asked on a dry run');
      };
      const result = await run([...argv, '--dry-run'], { prompter: { confirm: refuse, input: refuse } });
      expect(result.stderr).not.toMatch(/needs a confirmation/);
      expect(result.code).toBe(0);
      expect(seen.filter(({ method }) => method !== 'GET')).toEqual([]);
    });

    it.runIf(def.confirm?.records)('with --from, is refused before the file is read', async () => {
      const result = await run([...path, '--from', join(tmpdir(), 'clinic-no-such-file.ndjson')]);
      expect(result.stderr).toBe(
        `error: ${def.confirm?.action} --from needs a confirmation and there is no terminal to ask on: pass --yes\n`,
      );
      expect(result.code).toBe(2);
    });
  });
});
