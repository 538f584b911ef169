// `clinic doctor`: runs the checks in src/core/doctor in order and presents them: a line per check on a terminal
// (printed as each finishes), one JSON document for scripts; exit 1 when any check fails.
import type { CommandRun } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import type { Progress } from '../../cli/io.js';
import { createListWriter, type OutputSpec, writeResource } from '../../cli/output/render.js';
import type { CheckResult } from '../../core/doctor/check.js';
import { runDoctor } from '../../core/doctor/run-checks.js';
import { OutcomeError } from '../../core/errors.js';
import { checkRecord, humanLine, reportRecord, summary } from './render.js';

/** The output format; the config may be what is broken, so flags and the terminal decide then. */
async function outputSpec(ctx: Context): Promise<OutputSpec> {
  try {
    return await ctx.output();
  } catch {
    return {
      format: ctx.globals.output ?? (ctx.io.stdoutIsTTY ? 'table' : 'json'),
      fields: ctx.globals.fields,
      csvRaw: ctx.globals.csvRaw,
      colour: ctx.io.colour,
      width: ctx.io.columns,
    };
  }
}

export async function doctor(ctx: Context): Promise<void> {
  let spec: OutputSpec | undefined;
  let progress: Progress | undefined;
  const style = { colour: ctx.io.colour, home: ctx.env.HOME };
  const report = await runDoctor(ctx, {
    start: async (name) => {
      progress = await ctx.io.progress(`checking ${name}…`);
    },
    result: async (result: CheckResult) => {
      progress?.stop();
      // Asked after the first check, which has read the config file (reading it tightens loose modes).
      spec ??= await outputSpec(ctx);
      if (spec.format === 'table') await ctx.io.write(`${humanLine(result, style)}\n`);
    },
  });
  spec ??= await outputSpec(ctx);
  if (spec.format === 'csv') {
    const writer = createListWriter(ctx.io, spec, []);
    await writer.writeMany(report.checks.map(checkRecord));
    await writer.end();
  } else if (spec.format !== 'table') {
    await writeResource(ctx.io, spec, reportRecord(report));
  }
  if (!report.ok) throw new OutcomeError(summary(report));
  if (spec.format === 'table') ctx.io.err(summary(report));
}

export const run: CommandRun = (_input, ctx) => doctor(ctx);
