// announcements: the declaration; its code loads only when it runs.
import { getVerb, noun } from '../../cli/declare.js';

export default noun({
  name: 'announcements',
  summary: 'announcements to the clinic',
  category: 'Clinic data',
  commands: [
    getVerb({
      what: 'announcement',
      path: 'announcement',
      summary: 'show one announcement',
      description:
        'Show an announcement (GET /v1/announcements/{id}): title, content, severity, whether it is active and its\n' +
        'start and end dates. The values of severity are not shown in the API document.',
      examples: ['clinic announcements get 1', 'clinic announcements get 1 --fields title,end_date -o json'],
    }),
  ],
});
