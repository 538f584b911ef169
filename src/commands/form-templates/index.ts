// form-templates: the declaration; its code loads only when it runs.
import { defineCommand } from '../../cli/command.js';
import { idArg, noun } from '../../cli/declare.js';
import { option } from '../../cli/options.js';

export const UPDATE_OPTIONS = [
  option.text('--name <name>', 'new name'),
  option.text('--description <text>', 'new description', { allowEmpty: true }),
  option.flag('--active', 'make the template active'),
  option.flag('--inactive', 'make the template inactive'),
] as const;

const update = defineCommand({
  name: 'update',
  summary: 'change the name, description or active state of a form template',
  description:
    'Update a form template (PUT /v1/form-templates/{id}, body {"name", "description", "is_active"}); only the\n' +
    'fields given are sent. The API document calls a PUT a replacement: a server that follows it to the letter may\n' +
    'clear the fields left out (the sandbox keeps them), so the command says which; give all three to be sure.\n' +
    'Prints the updated template with its questions.',
  args: idArg('form template'),
  options: UPDATE_OPTIONS,
  dryRun: 'honoured',
  examples: [
    'clinic form-templates update 3 --name "Intake (2026)"',
    'clinic form-templates update 3 --inactive',
    'clinic form-templates update 3 --description "Asked at the first visit" --dry-run',
  ],
  load: async () => (await import('./update.js')).run,
});

export default noun({
  name: 'form-templates',
  summary: 'form templates (questionnaires)',
  category: 'Clinic data',
  examples: ['clinic form-templates update 3 --active'],
  commands: [update],
});
