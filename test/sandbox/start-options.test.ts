// `clinic sandbox start --erasure-step`: parsed into the sandbox's erasureStepSeconds, or left to its default.
import { describe, expect, it } from 'vitest';
import { isNoun } from '../../src/cli/command.js';
import { parseCommandInput } from '../../src/cli/program.js';
import sandboxNoun from '../../src/commands/sandbox/index.js';
import { parseSandboxOptions } from '../../src/commands/sandbox/start.js';

const startDef = sandboxNoun.commands.find((def) => def.name === 'start');
const parseArgv = (argv: string[]) => {
  if (startDef === undefined || isNoun(startDef)) throw new Error('no start verb');
  return parseSandboxOptions(parseCommandInput(startDef, argv).options);
};

describe('--erasure-step', () => {
  it('is left to the sandbox default (30 s) when absent', () => {
    expect(parseSandboxOptions({}).erasureStepSeconds).toBeUndefined();
  });

  it('takes whole seconds, 0 freezing every request', () => {
    expect(parseSandboxOptions({ erasureStep: '1' }).erasureStepSeconds).toBe(1);
    expect(parseSandboxOptions({ erasureStep: 0 }).erasureStepSeconds).toBe(0);
  });

  it('comes from the command line with the other flags', () => {
    expect(parseArgv(['--erasure-step', '2', '--no-write-profile'])).toMatchObject({
      erasureStepSeconds: 2,
      port: 0,
      records: 40,
      writeProfile: undefined,
    });
    expect(parseArgv([]).erasureStepSeconds).toBeUndefined();
    expect(() => parseArgv(['--erasure-step', 'x'])).toThrow(/--erasure-step/);
  });

  it.each(['-1', '1.5', 'soon', '86401'])('refuses %s', (value) => {
    expect(() => parseSandboxOptions({ erasureStep: value })).toThrow(/--erasure-step/);
  });
});
