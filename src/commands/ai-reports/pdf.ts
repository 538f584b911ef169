// `clinic ai-reports pdf ID [-O FILE] [--force]`: GET /v1/ai-reports/{id}/pdf saved to a file.
import { type CommandInput, verb } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { checkTarget, type DownloadTarget, downloadPdf } from '../../cli/download.js';
import { parseId } from '../../cli/parse-args.js';
import { paths } from '../../core/api/resources.js';
import type { PDF_OPTIONS } from './index.js';

export function parse({ args, options }: CommandInput<typeof PDF_OPTIONS>) {
  const id = parseId(args[0] ?? '', 'AI report ID');
  return { id, target: { file: options.outputFile ?? `ai-report-${id}.pdf`, force: options.force === true } };
}

export async function savePdf(options: { id: number; target: DownloadTarget }, ctx: Context): Promise<void> {
  await checkTarget(ctx, options.target);
  await downloadPdf(
    ctx,
    { method: 'GET', path: paths.aiReportPdf(options.id) },
    options.target,
    `AI report ${options.id}`,
  );
}

export const run = verb(parse, savePdf);
