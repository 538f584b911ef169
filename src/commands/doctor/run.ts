// `clinic doctor`: runs the checks in src/core/doctor in order and presents them: a line per check on a terminal
// (printed as each finishes), one JSON document for scripts; exit 1 when any check fails, 130 on Ctrl-C (after
// writing the checks done so far).
import type { CommandRun } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import type { Progress } from '../../cli/io.js';
import type { OutputSpec } from '../../cli/output/render.js';
import type { CheckResult } from '../../core/doctor/check.js';
import { CHECKS, runDoctor } from '../../core/doctor/run-checks.js';
import { CancelledError, OutcomeError } from '../../core/errors.js';
import { humanLine, summary, writeReport } from './render.js';

/** A line per check as it finishes: the table format without --fields (with them, a table of those columns). */
const lineByLine = (spec: OutputSpec) => spec.format === 'table' && !spec.fields;

export async function doctor(ctx: Context): Promise<void> {
  let spec: OutputSpec | undefined;
  let progress: Progress | undefined;
  const style = { colour: ctx.io.colour, home: ctx.env.HOME };
  let report;
  try {
    report = await runDoctor(ctx, {
      start: async (name) => {
        progress = await ctx.io.progress(`checking ${name}…`);
      },
      result: async (result: CheckResult) => {
        progress?.stop();
        // Asked after the first check, which has read the config file (reading it tightens loose modes).
        spec ??= await ctx.output({ configMayFail: true });
        // On a terminal a long line wraps inside its width; into a pipe each check stays one line.
        const width = spec.terminal ? spec.width : undefined;
        if (lineByLine(spec)) await ctx.io.write(`${humanLine(result, { ...style, width })}\n`);
      },
    });
  } finally {
    progress?.stop();
  }
  spec ??= await ctx.output({ configMayFail: true });
  if (!lineByLine(spec)) await writeReport(ctx.io, spec, report);
  if (report.interrupted)
    throw new CancelledError(`interrupted after ${report.checks.length} of ${CHECKS.length} checks`);
  if (!report.ok) throw new OutcomeError(summary(report));
  if (spec.format === 'table') ctx.io.err(summary(report));
}

export const run: CommandRun = (_input, ctx) => doctor(ctx);
