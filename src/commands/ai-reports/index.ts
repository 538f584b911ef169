// ai-reports: the declaration; its code loads only when it runs.
import { otherwiseWithApi } from '../../cli/assumed.js';
import { defineCommand } from '../../cli/command.js';
import { idArg, noun } from '../../cli/declare.js';
import { option } from '../../cli/options.js';

export const PDF_OPTIONS = [
  option.file('-O, --output-file <file>', 'where to save the PDF (default ai-report-{id}.pdf; - = stdout)'),
  option.flag('--force', 'overwrite an existing file'),
] as const;

const pdf = defineCommand({
  name: 'pdf',
  summary: 'download an AI report as a PDF',
  description:
    'Download an AI report (GET /v1/ai-reports/{id}/pdf) to a file. The success answer is not shown in the API\n' +
    'document (assumed: the PDF bytes): the body is saved only when it starts with %PDF-, through a temporary\n' +
    'file renamed into place, so an error body is never written as a PDF. An existing file needs --force.' +
    otherwiseWithApi('clinic api /v1/ai-reports/3/pdf > report.pdf'),
  args: idArg('AI report'),
  options: PDF_OPTIONS,
  examples: [
    'clinic ai-reports pdf 1',
    'clinic ai-reports pdf 1 -O reports/april.pdf --force',
    'clinic ai-reports pdf 1 -O - | lpr',
  ],
  noJq: 'ai-reports pdf writes a PDF, not JSON',
  noRaw: true,
  load: async () => (await import('./pdf.js')).run,
});

export default noun({
  name: 'ai-reports',
  summary: 'AI reports as PDF',
  category: 'Clinic data',
  commands: [pdf],
});
