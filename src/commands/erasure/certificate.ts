// `clinic erasure certificate ID [-O FILE]`: the certificate PDF of a completed request, saved like a report.
import { type CommandInput, verb } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { checkTarget, type DownloadTarget, downloadPdf } from '../../cli/download.js';
import { parseId } from '../../cli/parse-args.js';
import { checkAllowed, getErasureRequest } from '../../core/api/erasure.js';
import { paths } from '../../core/api/resources.js';
import type { CERTIFICATE_OPTIONS } from './index.js';

export function parse({ args, options }: CommandInput<typeof CERTIFICATE_OPTIONS>) {
  const id = parseId(args[0] ?? '', 'erasure request ID');
  const file = options.outputFile ?? `erasure-certificate-${id}.pdf`;
  return { id, target: { file, force: options.force === true } };
}

export async function saveCertificate(options: { id: number; target: DownloadTarget }, ctx: Context) {
  await checkTarget(ctx, options.target);
  const request = await getErasureRequest(await ctx.http(), options.id);
  checkAllowed(request, 'certificate');
  const get = { method: 'GET', path: paths.erasureCertificate(options.id) };
  await downloadPdf(ctx, get, options.target, `the certificate of erasure request ${options.id}`);
}

export const run = verb(parse, saveCertificate);
