// announcements: the declaration; its code loads only when it runs.
import { defineCommand, defineNoun } from '../../cli/command.js';

const get = defineCommand({
  name: 'get',
  summary: 'show one announcement',
  description:
    'Show an announcement (GET /v1/announcements/{id}): title, content, severity, whether it is active and its\n' +
    'start and end dates. The values of severity are not shown in the API document.',
  args: [{ name: 'id', description: 'announcement id' }],
  examples: ['clinic announcements get 1', 'clinic announcements get 1 --fields title,end_date -o json'],
  load: async () => (await import('./get.js')).run,
});

export default defineNoun({
  name: 'announcements',
  summary: 'announcements to the clinic',
  category: 'Clinic data',
  examples: ['clinic announcements get 1'],
  commands: [get],
});
