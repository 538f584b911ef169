// --jq is jq: a sample of the jq manual, one or two cases per section (test/bench/jq-manual-cases.json, the sample
// the library was chosen with), printed as --jq prints them: strings raw, other values as jq pretty-prints them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileJq } from '../../../src/cli/output/jq.js';

interface ManualCase {
  program: string;
  input: unknown;
  outputs: unknown[];
}

const { cases } = JSON.parse(
  readFileSync(new URL('../../bench/jq-manual-cases.json', import.meta.url), 'utf8'),
) as { cases: ManualCase[] };

/** What --jq prints for these outputs: each on its own line(s), a string as its text. */
const printed = (outputs: unknown[]) =>
  outputs.map((value) => `${typeof value === 'string' ? value : JSON.stringify(value, null, 2)}\n`).join('');

describe('the jq manual through --jq', () => {
  it.each(cases)('$program', async ({ program, input, outputs }) => {
    const result = (await compileJq(program)).run(JSON.stringify(input));
    expect(result.failure).toBeUndefined();
    expect(result.printed).toBe(printed(outputs));
  });
});
