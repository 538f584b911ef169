// `clinic sandbox start --erasure-step` and `--chatter`: parsed into the sandbox's options, or left to their defaults.
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

describe('--chatter', () => {
  it('is left to the sandbox default (0, no generated messages) when absent', () => {
    expect(parseSandboxOptions({}).chatter).toBeUndefined();
    expect(parseArgv([]).chatter).toBeUndefined();
  });

  it.each([
    ['2', 2],
    ['0.5', 0.5],
    ['.25', 0.25],
    ['0', 0],
    ['1000', 1000],
  ])('takes %s messages per second', (text, rate) => {
    expect(parseArgv(['--chatter', text]).chatter).toBe(rate);
    expect(parseSandboxOptions({ chatter: text }).chatter).toBe(rate);
  });

  it.each(['-1', 'lots', '1e3', '1001', '', 'Infinity', '0x10'])('refuses %j with a usage error', (value) => {
    expect(() => parseArgv(['--chatter', value])).toThrow(
      /--chatter must be a number of messages per second/,
    );
  });
});

describe('--faults', () => {
  it('names ws-drop in its help', () => {
    if (startDef === undefined || isNoun(startDef)) throw new Error('no start verb');
    const faults = startDef.options?.find((def) => def.key === 'faults');
    expect(faults?.description).toContain('ws-drop');
  });
});

it('highest ids are found without spreading: 200,000 records do not overflow the call stack', async () => {
  const { highestId } = await import('../../src/sandbox/data/ids.js');
  const records = Array.from({ length: 200_000 }, (_, i) => ({ id: i + 1 }));
  expect(highestId(records)).toBe(200_000);
  expect(highestId([])).toBe(0);
});

describe('--latency', () => {
  it('is left to the sandbox default (0, no wait) when absent', () => {
    expect(parseSandboxOptions({}).latencyMs).toBeUndefined();
    expect(parseArgv([]).latencyMs).toBeUndefined();
  });

  it('takes whole milliseconds', () => {
    expect(parseArgv(['--latency', '40']).latencyMs).toBe(40);
    expect(parseArgv(['--latency', '0']).latencyMs).toBe(0);
    expect(parseSandboxOptions({ latency: '60000' }).latencyMs).toBe(60_000);
  });

  it.each(['-1', '1.5', 'slow', '60001'])('refuses %s', (value) => {
    expect(() => parseSandboxOptions({ latency: value })).toThrow(/--latency/);
    expect(() => parseArgv(['--latency', value])).toThrow(/--latency/);
  });
});
