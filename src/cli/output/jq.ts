// --jq: what `-o json` would print, filtered through a jq program, strings printed raw (as gh's --jq). The program
// runs in jq itself, compiled to WebAssembly (jq-wasm, loaded only when --jq is given: no jq binary needed). jq reads
// the whole output before it filters it, so a list is held in memory until it ends. jq-wasm (jq 1.8.2, MIT, built by
// a jq maintainer) was chosen with test/bench/jq-candidates.mjs: it and jq-web passed all of the manual sample, a
// pure-JavaScript port (jqjs) 56 of 73; jq-wasm names its jq version, hands jq's stderr back instead of printing it
// itself, and ships only its build.
import type { Jq } from 'jq-wasm';
import { FilterError, UsageError } from '../../core/errors.js';
import type { CommandDef } from '../command.js';
import type { IO } from '../io.js';
import { TOO_DEEP, textNestsDeeperThan } from '../../core/json-depth.js';

/** What a run of the program gave: what it prints, jq's own messages (debug, stderr), and its error if it failed. */
export interface JqResult {
  printed: string;
  messages: string[];
  failure?: string;
}

export interface JqProgram {
  /** Runs the program over JSON text (one value, or several one after another, as jq reads them). */
  run(json: string): JqResult;
}

/** jq's complaint on one line: its first line, without the `jq: error (at …):` prefix. */
function complaint(stderr: string): string {
  const first = stderr.split('\n').find((line) => line.trim() !== '') ?? 'jq failed';
  return first.replace(/^jq: error(?: \(at [^)]*\))?: /, '').replace(/:$/, '');
}

/**
 * jq's outputs, each as --jq prints it. jq prints every output followed by a line break, and a line break outside
 * a string at the outermost level ends an output (pretty JSON breaks lines only inside arrays and objects). A string
 * is printed as its text; anything else exactly as jq wrote it (its big numbers whole).
 */
function printedOutputs(stdout: string): string {
  let printed = '';
  let start = 0;
  let depth = 0;
  let inString = false;
  for (let i = 0; i <= stdout.length; i++) {
    const char = stdout[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '[' || char === '{') depth++;
    else if (char === ']' || char === '}') depth--;
    else if ((char === '\n' && depth === 0) || i === stdout.length) {
      // (jq-wasm trims the last line break)
      const text = stdout.slice(start, i);
      if (text !== '') printed += `${text.startsWith('"') ? (JSON.parse(text) as string) : text}\n`;
      start = i + 1;
    }
  }
  return printed;
}

function runProgram(jq: Jq, program: string, json: string): JqResult {
  const { stdout, stderr, exitCode } = jq.raw(json, program);
  const printed = printedOutputs(stdout);
  if (exitCode !== 0) return { printed, messages: [], failure: complaint(stderr) };
  return { printed, messages: stderr === '' ? [] : stderr.split('\n') };
}

let loading: Promise<Jq> | undefined;

/** Loads jq and compiles the program: a program that does not compile is a usage error (exit 2). */
export async function compileJq(program: string): Promise<JqProgram> {
  loading ??= import('jq-wasm').then(({ loadJq }) => loadJq());
  const jq = await loading;
  // No input: jq compiles the program and runs it on nothing, so only a compile error can come back.
  const check = jq.raw('', program);
  if (check.exitCode !== 0) throw new UsageError(`--jq: ${complaint(check.stderr)}`);
  return { run: (json) => runProgram(jq, program, json) };
}

/** Collects the command's output, then prints it filtered. */
export class JqOutput {
  private collected = '';
  private finished = false;

  constructor(
    private readonly io: IO,
    private readonly program: JqProgram,
  ) {}

  async write(text: string): Promise<void> {
    this.collected += text;
  }

  /**
   * Filters what was collected and prints the result (a terminal gets it sanitized, a pipe exactly); once, also
   * after a failure, as long as the command printed something (a failed command's output is complete or closed).
   */
  async finish(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    this.io.collectData(undefined);
    if (this.collected === '') return;
    // jq (WebAssembly) runs out of its stack some 800 levels down: a server's value is refused as any input too deep is.
    if (textNestsDeeperThan(this.collected)) {
      this.collected = '';
      throw new FilterError(`--jq: the output ${TOO_DEEP}: not filtered`);
    }
    const result = this.program.run(this.collected);
    this.collected = '';
    for (const message of result.messages) this.io.err(message);
    if (result.printed !== '') await this.io.writeServerText(result.printed);
    if (result.failure !== undefined) throw new FilterError(`--jq: ${result.failure}`);
  }
}

/**
 * Before the command runs (before any request): refuses --jq where it has nothing to filter, compiles the program,
 * and collects the command's stdout from then on.
 */
export async function filterOutput(io: IO, def: CommandDef, program: string): Promise<JqOutput> {
  if (def.noJq !== undefined) throw new UsageError(`--jq: ${def.noJq}`);
  const output = new JqOutput(io, await compileJq(program));
  io.collectData(output);
  return output;
}
