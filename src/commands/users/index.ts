// users: the declaration; its code loads only when it runs.
import { getVerb, noun } from '../../cli/declare.js';

export default noun({
  name: 'users',
  summary: 'users (staff) of the tenant',
  category: 'Clinic data',
  commands: [
    getVerb({
      what: 'user',
      path: 'user',
      summary: 'show one user of the tenant',
      description:
        'Show a user (GET /v1/users/{id}). The API document does not show the fields of a user record (assumed):\n' +
        'whatever the server sends is printed; --fields picks from it.',
      examples: ['clinic users get 3', 'clinic users get 3 --fields name,email -o json'],
    }),
  ],
});
